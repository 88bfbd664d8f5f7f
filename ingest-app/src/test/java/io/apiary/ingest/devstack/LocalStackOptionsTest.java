package io.apiary.ingest.devstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LocalStackOptionsTest {

    @Test
    void should_use_documented_defaults_when_nothing_is_set() {
        LocalStackOptions o = LocalStackOptions.defaults();

        assertThat(o.workDir()).isEmpty();
        assertThat(o.keepWorkDir()).isFalse();
        assertThat(o.startTimeout()).isEqualTo(Duration.ofSeconds(180));
        assertThat(o.stopTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(o.devstackDir()).isEmpty();
        assertThat(o.registry()).isTrue();
        assertThat(o.javaHome()).isEmpty();
        assertThat(o.kafkaInitialHeap() + "/" + o.kafkaMaxHeap()).isEqualTo("512m/1g");
        assertThat(o.cassandraInitialHeap() + "/" + o.cassandraMaxHeap()).isEqualTo("256m/1g");
        assertThat(o.kafkaJvmOptions()).isEmpty();
        assertThat(o.cassandraJvmOptions()).isEmpty();
    }

    @Test
    void should_keep_every_value_when_copied_through_to_builder() {
        LocalStackOptions o = LocalStackOptions.builder()
                .workDir(Path.of("/tmp/x"))
                .keepWorkDir(true)
                .startTimeout(Duration.ofSeconds(5))
                .kafkaHeap("256m", "512m")
                .addCassandraJvmOption("-Dx=y")
                .registry(false)
                .build();

        LocalStackOptions copy = o.toBuilder().build();

        assertThat(copy.registry()).isFalse();

        assertThat(copy.toString()).isEqualTo(o.toString());
        assertThat(copy.workDir()).contains(Path.of("/tmp/x"));
        assertThat(copy.cassandraJvmOptions()).containsExactly("-Dx=y");
    }

    @Test
    void should_reject_value_when_heap_size_or_timeout_is_invalid() {
        assertThatThrownBy(() -> LocalStackOptions.builder().kafkaHeap("512MB", "1g"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("512MB");
        assertThatThrownBy(() -> LocalStackOptions.builder().startTimeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("startTimeout");
    }
}
