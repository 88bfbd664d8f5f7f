package io.apiary.ingest.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class MetricsScrapeTest {

    private static final String TEXT = """
            # HELP jvm_memory_used_bytes The amount of used memory
            # TYPE jvm_memory_used_bytes gauge
            jvm_memory_used_bytes{application="apiary-ingest",area="heap",id="G1 Eden Space"} 2.2020096E7
            jvm_memory_used_bytes{application="apiary-ingest",area="heap",id="G1 Old Gen"} 2.0051456E7
            jvm_memory_used_bytes{application="apiary-ingest",area="nonheap",id="Metaspace"} 4.6496048E7
            kafka_stream_state_block_cache_usage{rocksdb_state_id="sums",task_id="1_0"} 262320.0
            kafka_stream_state_block_cache_usage{rocksdb_state_id="seen",task_id="1_0"} 262400.0
            kafka_stream_state_estimate_num_keys{rocksdb_state_id="sums",task_id="1_0"} 10.0
            kafka_stream_state_estimate_num_keys{rocksdb_state_id="sums",task_id="1_1"} 15.0
            kafka_stream_state_estimate_num_keys{rocksdb_state_id="seen",task_id="1_1"} 100.0
            odd_label{detail="a \\"quoted\\", comma",x="y"} 1 1700000000000
            plain_total 42
            not_a_number{a="b"} NaN
            infinite +Inf
            """;

    @Test
    void sums_maxima_and_sums_per_label_over_the_samples_that_match() {
        MetricsScrape scrape = MetricsScrape.parse(TEXT);

        assertThat(scrape.samples()).hasSize(12);
        assertThat(scrape.sum("jvm_memory_used_bytes", "area", "heap")).isEqualTo(2.2020096E7 + 2.0051456E7);
        assertThat(scrape.sum("jvm_memory_used_bytes")).isEqualTo(2.2020096E7 + 2.0051456E7 + 4.6496048E7);
        assertThat(scrape.max("kafka_stream_state_block_cache_usage")).hasValue(262400.0);
        assertThat(scrape.max("absent")).isEmpty();
        assertThat(scrape.sum("absent")).isZero();
        assertThat(scrape.has("plain_total")).isTrue();
        assertThat(scrape.has("jvm_memory_used_bytes", "area", "offheap")).isFalse();
        assertThat(scrape.sumBy("kafka_stream_state_estimate_num_keys", "rocksdb_state_id"))
                .containsExactly(Map.entry("seen", 100.0), Map.entry("sums", 25.0));
        assertThat(scrape.sum("plain_total")).isEqualTo(42);
        assertThat(scrape.max("not_a_number").getAsDouble()).isNaN();
        assertThat(scrape.max("infinite")).hasValue(Double.POSITIVE_INFINITY);
    }

    @Test
    void label_values_keep_escaped_quotes_and_commas() {
        MetricsScrape.Sample odd = MetricsScrape.parse(TEXT).samples().stream()
                .filter(s -> s.name().equals("odd_label"))
                .findFirst()
                .orElseThrow();
        assertThat(odd.labels()).containsExactly(Map.entry("detail", "a \"quoted\", comma"), Map.entry("x", "y"));
        assertThat(odd.value()).isEqualTo(1.0);
    }

    @Test
    void a_malformed_line_is_refused_naming_it() {
        assertThatThrownBy(() -> MetricsScrape.parse("broken{a=\"b} 1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("broken{a=\"b} 1");
        assertThatThrownBy(() -> MetricsScrape.parse("novalue")).hasMessageContaining("no value");
        assertThatThrownBy(() -> MetricsScrape.parse("x{a=\"b\"}")).hasMessageContaining("no value");
        assertThatThrownBy(() -> MetricsScrape.parse("x{a} 1")).hasMessageContaining("malformed labels");
        assertThatThrownBy(() -> MetricsScrape.parse("x 1").sum("x", "odd")).hasMessageContaining("pairs");
    }
}
