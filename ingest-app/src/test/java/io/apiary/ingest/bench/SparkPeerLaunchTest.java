package io.apiary.ingest.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SparkPeerLaunchTest {

    @TempDir
    Path dir;

    @AfterEach
    void clearProperty() {
        System.clearProperty(SparkPeerLaunch.DIR_PROPERTY);
    }

    @Test
    void the_peer_is_found_only_when_its_jar_and_classpath_file_are_built() throws Exception {
        System.setProperty(SparkPeerLaunch.DIR_PROPERTY, dir.toString());
        assertThat(SparkPeerLaunch.locate()).isEmpty();

        Files.writeString(dir.resolve("classpath.txt"), "/x/spark-core.jar");
        assertThat(SparkPeerLaunch.locate()).as("no jar yet").isEmpty();

        Files.writeString(dir.resolve("ingest-bench-spark.jar"), "");
        assertThat(SparkPeerLaunch.locate()).contains(new SparkPeerLaunch(dir));
    }

    @Test
    void the_command_runs_the_peer_with_its_jar_first_and_the_java_17_options_for_spark() throws Exception {
        Files.writeString(dir.resolve("classpath.txt"), "/x/spark-core.jar:/x/connector.jar\n");
        List<String> command = new SparkPeerLaunch(dir).command(512, List.of("rows=10"));

        assertThat(command)
                .contains("-Xmx512m", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", SparkPeerLaunch.MAIN_CLASS);
        assertThat(command.get(command.indexOf("-cp") + 1))
                .isEqualTo(dir.resolve("ingest-bench-spark.jar") + ":/x/spark-core.jar:/x/connector.jar");
        assertThat(command.get(command.size() - 1)).isEqualTo("rows=10");
        assertThat(command.indexOf(SparkPeerLaunch.MAIN_CLASS)).isGreaterThan(command.indexOf("-cp"));
    }

    @Test
    void progress_is_read_as_key_value_lines_and_a_missing_file_is_no_progress() throws Exception {
        Path file = dir.resolve("progress.properties");
        assertThat(SparkPeerLaunch.progress(file)).isEmpty();
        assertThat(SparkPeerLaunch.number(Map.of(), "rows")).isNaN();

        Files.writeString(file, "rows=90000\nrequests=-1\np99_ms=NaN\nfailed=a=b\n");
        Map<String, String> progress = SparkPeerLaunch.progress(file);

        assertThat(SparkPeerLaunch.number(progress, "rows")).isEqualTo(90_000);
        assertThat(SparkPeerLaunch.number(progress, "requests")).isEqualTo(-1);
        assertThat(SparkPeerLaunch.number(progress, "p99_ms")).isNaN();
        assertThat(progress.get("failed")).isEqualTo("a=b");
        assertThat(SparkPeerLaunch.number(Map.of("rows", "x"), "rows")).isNaN();
    }
}
