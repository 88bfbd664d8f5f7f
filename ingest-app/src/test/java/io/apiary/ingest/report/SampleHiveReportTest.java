package io.apiary.ingest.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.read.ActivityRow;
import io.apiary.ingest.read.TelemetryRow;
import io.apiary.ingest.read.TimeRange;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Writes a sample report to look at in a browser, from the UrBAN Montreal data set (hive 3627,
 * 2021-07-12 to 2021-07-18) and made-up hourly bee traffic. Runs only when asked:
 * {@code -Dtest=SampleHiveReportTest -Dapiary.report.sample=/tmp/report.html}
 * ({@code -Dapiary.report.urban=} for another copy of {@code sensor_2021.csv}).
 */
@EnabledIfSystemProperty(named = "apiary.report.sample", matches = ".+")
class SampleHiveReportTest {

    private static final String HIVE = "3627";
    private static final TimeRange RANGE = TimeRange.days(LocalDate.of(2021, 7, 12), LocalDate.of(2021, 7, 18));
    private static final DateTimeFormatter URBAN_TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ssxxx");

    @Test
    void should_write_a_sample_report_when_asked() throws IOException {
        // Given
        Path csv =
                Path.of(System.getProperty("apiary.report.urban", "/work/shared/data/urban-montreal/sensor_2021.csv"));
        List<TelemetryRow> readings = urbanReadings(csv);
        List<TelemetryRow> all = new ArrayList<>(readings);
        all.addAll(madeUpWeight());
        List<ActivityRow> activity = madeUpActivity();
        HiveReport report = new HiveReport(
                HIVE, RANGE, all, activity, Instant.parse("2021-07-19T08:00:00Z"), "14 partitions read in 0.4 s");

        // When
        String html = HtmlReport.render(report);
        Path out = Path.of(System.getProperty("apiary.report.sample"));
        Files.writeString(out, html, StandardCharsets.UTF_8);

        // Then
        assertThat(readings).isNotEmpty();
        assertThat(html).contains("data-sensor=\"TEMPERATURE\" data-points=\"" + readings.size() / 2 + "\"");
    }

    private static List<TelemetryRow> urbanReadings(Path csv) throws IOException {
        List<TelemetryRow> rows = new ArrayList<>();
        try (Reader in = Files.newBufferedReader(csv, StandardCharsets.UTF_8)) {
            for (CSVRecord r : CSVFormat.DEFAULT
                    .builder()
                    .setHeader()
                    .setSkipHeaderRecord(true)
                    .get()
                    .parse(in)) {
                Instant time = OffsetDateTime.parse(r.get("Date"), URBAN_TIME).toInstant();
                if (!r.get("Tag number").equals(HIVE) || !RANGE.contains(time.toEpochMilli())) {
                    continue;
                }
                rows.add(new TelemetryRow(
                        HIVE, "TEMPERATURE", "default", time, Double.parseDouble(r.get("temperature")), "°C", "urban"));
                rows.add(new TelemetryRow(
                        HIVE, "HUMIDITY", "default", time, Double.parseDouble(r.get("humidity")), "%", "urban"));
            }
        }
        return rows;
    }

    /** A scale reading a minute (so downsampled), gaining in daylight, with a 9-hour outage on 07-16. */
    private static List<TelemetryRow> madeUpWeight() {
        Random random = new Random(42);
        List<TelemetryRow> rows = new ArrayList<>();
        double kg = 41.0;
        for (long t = RANGE.fromMillis(); t < RANGE.toMillis(); t += 60_000L) {
            Instant time = Instant.ofEpochMilli(t);
            int hour = time.atZone(java.time.ZoneOffset.UTC).getHour();
            kg += (hour >= 12 && hour < 22 ? 0.0012 : -0.0006) + (random.nextDouble() - 0.5) * 0.002;
            if (time.isBefore(Instant.parse("2021-07-16T03:00:00Z"))
                    || time.isAfter(Instant.parse("2021-07-16T12:00:00Z"))) {
                rows.add(new TelemetryRow(
                        HIVE,
                        "WEIGHT",
                        "default",
                        time,
                        Math.round((kg + random.nextGaussian() * 0.02) * 1000) / 1000.0,
                        "kg",
                        "scale-1"));
            }
        }
        return rows;
    }

    /** Hourly traffic with a daily rhythm (Montreal daylight is about 10:00 to 00:00 UTC) and a 5-hour outage. */
    private static List<ActivityRow> madeUpActivity() {
        Random random = new Random(3627);
        List<ActivityRow> rows = new ArrayList<>();
        for (LocalDate day = LocalDate.of(2021, 7, 12);
                day.isBefore(LocalDate.of(2021, 7, 19));
                day = day.plusDays(1)) {
            for (int hour = 0; hour < 24; hour++) {
                if (day.getDayOfMonth() == 14 && hour >= 3 && hour < 8) {
                    continue;
                }
                int local = Math.floorMod(hour - 4, 24);
                double daylight = Math.max(0, Math.sin(Math.PI * (local - 5.5) / 15.0));
                long in = Math.round(900 * daylight * (0.8 + 0.4 * random.nextDouble()) + random.nextInt(10));
                long out = Math.round(in * (0.9 + 0.2 * random.nextDouble()));
                rows.add(new ActivityRow(HIVE, day, hour, in, out, 60));
            }
        }
        return rows;
    }
}
