package io.apiary.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code dump}'s usage errors: exit 2 before any connection to Kafka. */
class DumpCommandTest {

    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = IngestApp.commandLine();
        cli.setOut(new PrintWriter(new StringWriter(), true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Test
    void should_exit_2_naming_the_pipeline_topics_for_another_topic() {
        assertThat(run("dump", "--topic", "no.such.topic", "--set", "kafka.bootstrap.servers=127.0.0.1:1"))
                .isEqualTo(2);
        assertThat(err.toString())
                .contains(
                        "--topic no.such.topic is not one of the pipeline's topics",
                        "hive.activity.hourly.v1",
                        "ingest.dead-letter.v1");
    }

    @Test
    void should_exit_2_for_bad_limits_or_both_start_positions() {
        assertThat(run("dump", "--topic", "hive.activity.hourly.v1", "--max-records", "0"))
                .isEqualTo(2);
        assertThat(run("dump", "--topic", "hive.activity.hourly.v1", "--timeout-seconds", "0"))
                .isEqualTo(2);
        assertThat(run("dump", "--topic", "hive.activity.hourly.v1", "--from-beginning", "--from-end"))
                .isEqualTo(2);
        assertThat(err.toString())
                .contains(
                        "--max-records must be at least 1",
                        "--timeout-seconds must be at least 1",
                        "mutually exclusive");
    }
}
