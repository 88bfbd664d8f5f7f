package io.apiary.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The demo command as the README runs it (with coarser simulated counts, to keep CI short). */
class DemoIT {

    @Test
    void should_write_every_distinct_urban_reading_and_print_the_summary() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = IngestApp.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));

        int exit = cli.execute("demo", "--count-interval-seconds", "900");

        assertThat(exit).as(err.toString()).isZero();
        assertThat(out.toString())
                .containsPattern("hive_telemetry\\s+132,194 rows in Cassandra")
                .containsPattern("holds 132,194 distinct \\(hive, sensor, time\\) readings")
                .containsPattern("dead-lettered records\\s+0")
                .contains("Hourly activity of hive 3627 on 2021-07-15")
                .containsPattern("total\\s+\\d+\\s+\\d+\\s+\\(24 hours\\)")
                .contains("Demo finished in");
    }
}
