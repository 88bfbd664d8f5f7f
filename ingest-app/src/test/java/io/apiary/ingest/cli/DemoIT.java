package io.apiary.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.demo.UrbanDataset;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The demo command as the README runs it (with coarser simulated counts, to keep CI short). */
class DemoIT {

    @Test
    void should_write_every_distinct_urban_reading_print_the_summary_and_write_the_report() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = IngestApp.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));

        Path report = Path.of("target", "demo-it", "report.html").toAbsolutePath();

        int exit = cli.execute("demo", "--count-interval-seconds", "900", "--report", report.toString());

        assertThat(exit).as(err.toString()).isZero();
        assertThat(out.toString())
                .containsPattern("hive_telemetry_v2\\s+132,194 rows in Cassandra")
                .containsPattern("holds 132,194 distinct \\(hive, sensor, time\\) readings")
                .containsPattern("dead-lettered records\\s+0")
                .containsPattern("late samples\\s+0 ")
                .containsPattern("exact hours\\s+([\\d,]+)  of \\1:")
                .doesNotContain("NOT EXACT")
                .contains("Hourly activity of hive 3627 on 2021-07-15")
                .containsPattern("total\\s+\\d+\\s+\\d+\\s+\\(24 hours\\)")
                .contains("Demo finished in")
                .contains("Report of hive 3627 from 2021-07-12 to 2021-07-18")
                .contains(report.toUri().toString());
        // One chart per sensor of the real hive, with one point per distinct reading of the week (Montreal days).
        io.apiary.ingest.read.TimeRange week = io.apiary.ingest.read.TimeRange.days(
                java.time.LocalDate.of(2021, 7, 12), java.time.LocalDate.of(2021, 7, 18), UrbanDataset.ZONE);
        Map<String, Long> expected = UrbanDataset.load().readings().stream()
                .filter(r -> r.getHiveId().equals("3627"))
                .filter(r -> week.contains(r.getReadingTime().toEpochMilli()))
                .map(r -> r.getSensorType() + "|" + r.getReadingTime())
                .distinct()
                .collect(Collectors.groupingBy(
                        k -> k.substring(0, k.indexOf('|')), TreeMap::new, Collectors.counting()));
        Map<String, Long> charted = new TreeMap<>();
        Matcher chart = Pattern.compile("data-sensor=\"([A-Z_]+)\" data-points=\"(\\d+)\"")
                .matcher(Files.readString(report));
        while (chart.find()) {
            charted.merge(chart.group(1), Long.parseLong(chart.group(2)), Long::sum);
        }
        assertThat(expected).containsOnlyKeys("TEMPERATURE", "HUMIDITY");
        assertThat(charted).isEqualTo(expected);
        assertThat(Files.readString(report)).contains("hour (America/Toronto, UTC\u221204:00)");
    }
}
