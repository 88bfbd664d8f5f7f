package io.apiary.ingest.report;

import static io.apiary.ingest.report.ReportRows.DAY;
import static io.apiary.ingest.report.ReportRows.hour;
import static io.apiary.ingest.report.ReportRows.readings;
import static io.apiary.ingest.report.ReportRows.report;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.read.ActivityRow;
import io.apiary.ingest.read.TelemetryRow;
import io.apiary.ingest.read.TimeRange;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

class HtmlReportTest {

    private static final Instant MIDNIGHT = DAY.atStartOfDay().toInstant(java.time.ZoneOffset.UTC);

    private static List<TelemetryRow> threeSensors() {
        List<TelemetryRow> rows = new ArrayList<>();
        rows.addAll(readings("TEMPERATURE", "C", MIDNIGHT, 12, 900));
        rows.addAll(readings("HUMIDITY", "%", MIDNIGHT, 7, 1800));
        rows.addAll(readings("WEIGHT", "kg", MIDNIGHT.plusSeconds(3600), 30, 600));
        return rows;
    }

    @Test
    void should_draw_one_chart_per_sensor_with_its_reading_count_when_sensors_have_different_counts() {
        // Given
        List<TelemetryRow> rows = threeSensors();
        var expected = rows.stream().collect(Collectors.groupingBy(TelemetryRow::sensorType, Collectors.counting()));

        // When
        ReportDocument html = ReportDocument.parse(HtmlReport.render(report(rows, List.of())));

        // Then
        List<Element> charts = html.all("//svg[@class='chart sensor-chart']");
        assertThat(charts)
                .extracting(c -> c.getAttribute("data-sensor"))
                .containsExactlyInAnyOrderElementsOf(expected.keySet());
        for (Element chart : charts) {
            assertThat(Long.parseLong(chart.getAttribute("data-points")))
                    .as(chart.getAttribute("data-sensor"))
                    .isEqualTo(expected.get(chart.getAttribute("data-sensor")));
        }
    }

    @Test
    void should_plot_as_many_points_as_readings_when_readings_are_evenly_spaced() {
        // Given
        List<TelemetryRow> rows = threeSensors();

        // When
        ReportDocument html = ReportDocument.parse(HtmlReport.render(report(rows, List.of())));

        // Then
        for (Element chart : html.all("//svg[@class='chart sensor-chart']")) {
            String sensor = chart.getAttribute("data-sensor");
            long readings =
                    rows.stream().filter(r -> r.sensorType().equals(sensor)).count();
            assertThat(chart.getElementsByTagName("polyline").getLength())
                    .as(sensor)
                    .isEqualTo(1);
            assertThat(ReportDocument.plottedPoints(chart)).as(sensor).isEqualTo((int) readings);
        }
    }

    @Test
    void should_break_the_line_when_consecutive_readings_are_far_apart() {
        // Given: 10 readings 15 minutes apart, 5 hours without, 10 more, and a lone reading 5 hours later
        List<TelemetryRow> rows = new ArrayList<>(readings("TEMPERATURE", "C", MIDNIGHT, 10, 900));
        rows.addAll(readings("TEMPERATURE", "C", MIDNIGHT.plusSeconds(8 * 3600), 10, 900));
        rows.addAll(readings("TEMPERATURE", "C", MIDNIGHT.plusSeconds(16 * 3600), 1, 900));

        // When
        ReportDocument html = ReportDocument.parse(HtmlReport.render(report(rows, List.of())));

        // Then
        Element chart = html.one("//svg[@data-sensor='TEMPERATURE']");
        assertThat(html.all("//svg[@data-sensor='TEMPERATURE']//polyline"))
                .extracting(ReportDocument::pairs)
                .containsExactly(10, 10);
        assertThat(html.all("//svg[@data-sensor='TEMPERATURE']//circle[@class='lone']"))
                .hasSize(1);
        assertThat(ReportDocument.plottedPoints(chart)).isEqualTo(21);
    }

    @Test
    void should_plot_bucket_means_when_a_sensor_has_more_readings_than_the_cap() {
        // Given: one reading every 30 s for 24 h (2,880) in a 3-day range: 3 days / 1,000 buckets is 4.3 min,
        // so 5-minute buckets, and 24 h / 5 min = 288 of them hold readings
        List<TelemetryRow> rows = readings("WEIGHT", "kg", MIDNIGHT, 2_880, 30);
        HiveReport report =
                new HiveReport("h", TimeRange.days(DAY, DAY.plusDays(2)), rows, List.of(), ReportRows.GENERATED, null);

        // When
        String text = HtmlReport.render(report);
        ReportDocument html = ReportDocument.parse(text);

        // Then
        Element chart = html.one("//svg[@data-sensor='WEIGHT']");
        assertThat(chart.getAttribute("data-points")).isEqualTo("288");
        assertThat(ReportDocument.plottedPoints(chart)).isEqualTo(288);
        assertThat(html.all("//svg[@data-sensor='WEIGHT']//polygon[@class='band']"))
                .hasSize(1);
        assertThat(html.one("//figure[svg/@data-sensor='WEIGHT']/figcaption").getTextContent())
                .contains("2,880 readings")
                .contains("288 5-minute means");
    }

    @Test
    void should_plot_every_reading_when_a_sensor_has_exactly_the_cap() {
        // Given
        List<TelemetryRow> rows = readings("WEIGHT", "kg", MIDNIGHT, SensorSeries.MAX_POINTS, 30);

        // When
        ReportDocument html = ReportDocument.parse(HtmlReport.render(report(rows, List.of())));

        // Then
        Element chart = html.one("//svg[@data-sensor='WEIGHT']");
        assertThat(chart.getAttribute("data-points")).isEqualTo(String.valueOf(SensorSeries.MAX_POINTS));
        assertThat(html.all("//svg[@data-sensor='WEIGHT']//polygon")).isEmpty();
    }

    @Test
    void should_draw_a_bar_pair_per_hour_with_data_when_activity_is_given() {
        // Given: five hours, one of them in two rows
        List<ActivityRow> activity = List.of(
                hour(6, 10, 8), hour(7, 300, 280), hour(7, 5, 5), hour(12, 900, 870), hour(13, 0, 0), hour(20, 40, 60));

        // When
        ReportDocument html = ReportDocument.parse(HtmlReport.render(report(List.of(), activity)));

        // Then
        Element chart = html.one("//svg[@class='chart activity-chart']");
        assertThat(chart.getAttribute("data-bars")).isEqualTo("5");
        assertThat(html.all("//svg[@class='chart activity-chart']/g[@class='hour']/rect[@class='bar in']"))
                .hasSize(5);
        assertThat(html.all("//svg[@class='chart activity-chart']/g[@class='hour']/rect[@class='bar out']"))
                .hasSize(5);
        assertThat(html.all("//svg[@class='chart activity-chart']//g[@class='legend']/text"))
                .extracting(Element::getTextContent)
                .anyMatch(t -> t.contains("in"))
                .anyMatch(t -> t.contains("out"));
    }

    @Test
    void should_list_each_hour_with_mean_min_max_and_bees_when_rendering_the_hourly_table() {
        // Given
        List<TelemetryRow> rows = List.of(
                new TelemetryRow(
                        "3627", "TEMPERATURE", "default", MIDNIGHT.plusSeconds(10 * 3600 + 300), 20.0, "C", null),
                new TelemetryRow(
                        "3627", "TEMPERATURE", "default", MIDNIGHT.plusSeconds(10 * 3600 + 2100), 22.5, "C", null));
        List<ActivityRow> activity = List.of(hour(10, 1200, 1100), hour(11, 7, 9));

        // When
        ReportDocument html = ReportDocument.parse(HtmlReport.render(report(rows, activity)));

        // Then
        List<Element> body = html.all("//table[@class='hourly']/tbody/tr");
        assertThat(body)
                .extracting(Element::getTextContent)
                .containsExactly("2021-07-12 10:0021.3 (20.0–22.5)1,2001,10060", "2021-07-12 11:00–7960");
    }

    @Test
    void should_escape_hostile_text_when_it_comes_from_the_data() {
        // Given
        String hive = "<script>alert(\"x\")</script>&'";
        String sensor = "T<b>\"&'";
        String unit = "<u>&amp;";
        TelemetryRow row = new TelemetryRow(hive, sensor, "default", MIDNIGHT, 1.5, unit, null);
        HiveReport report = new HiveReport(
                hive,
                ReportRows.ONE_DAY,
                List.of(row),
                List.of(),
                ReportRows.GENERATED,
                "</p><img src=x onerror=alert(1)>");

        // When
        String text = HtmlReport.render(report);
        ReportDocument html = ReportDocument.parse(text);

        // Then
        assertThat(text).doesNotContain("<script", "<b>", "<u>", "<img");
        assertThat(html.one("//h1").getTextContent()).isEqualTo("Hive " + hive);
        assertThat(html.one("//svg[@class='chart sensor-chart']").getAttribute("data-sensor"))
                .isEqualTo(sensor);
        assertThat(html.one("//table[@class='raw']/tbody/tr/td[3]").getTextContent())
                .isEqualTo(unit);
        assertThat(html.one("//p[contains(@class,'stats')]").getTextContent())
                .endsWith("</p><img src=x onerror=alert(1)>");
    }

    @Test
    void should_reference_nothing_external_when_rendering_a_full_report() {
        // Given
        List<ActivityRow> activity = List.of(hour(6, 10, 8), hour(7, 300, 280));
        List<TelemetryRow> rows = new ArrayList<>(threeSensors());
        rows.addAll(readings("WEIGHT", "kg", MIDNIGHT, 3_000, 20));

        // When
        String text = HtmlReport.render(report(rows, activity)).toLowerCase(Locale.ROOT);

        // Then
        assertThat(text)
                .doesNotContain("http://", "https://", "src=", "@import", "url(", "<script", "<link", "@font-face");
        assertThat(text).contains("font-family: system-ui, sans-serif");
    }

    @Test
    void should_say_no_data_was_found_when_the_report_has_no_rows() {
        // Given
        HiveReport empty = report(List.of(), List.of());

        // When
        ReportDocument html = ReportDocument.parse(HtmlReport.render(empty));

        // Then
        String message = html.one("//section[@class='empty']").getTextContent();
        assertThat(message)
                .contains("No data was found for hive 3627")
                .contains("2021-07-12")
                .contains("Check the hive id")
                .contains("date range");
        assertThat(html.all("//svg")).isEmpty();
        assertThat(html.one("//h1").getTextContent()).isEqualTo("Hive 3627");
    }

    @Test
    void should_count_one_reading_in_the_singular_and_others_in_the_plural_when_captioning() {
        // Given
        List<TelemetryRow> rows = new ArrayList<>(readings("WEIGHT", "kg", MIDNIGHT, 1, 600));
        rows.addAll(readings("HUMIDITY", "%", MIDNIGHT, 2, 600));

        // When
        ReportDocument html = ReportDocument.parse(HtmlReport.render(report(rows, List.of())));

        // Then
        List<String> captions =
                html.all("//figcaption").stream().map(n -> n.getTextContent()).toList();
        assertThat(captions)
                .anySatisfy(c -> assertThat(c).startsWith("WEIGHT – 1 reading").doesNotContain("1 readings"))
                .anySatisfy(c -> assertThat(c).startsWith("HUMIDITY – 2 readings"));
    }

    /** Two temperature probes and one humidity sensor, at the same instants. */
    private static List<TelemetryRow> twoTemperatureSensors() {
        List<TelemetryRow> rows = new ArrayList<>();
        rows.addAll(readings("TEMPERATURE", "outside", "C", MIDNIGHT, 5, 900));
        rows.addAll(readings("TEMPERATURE", "inside", "C", MIDNIGHT, 12, 900));
        rows.addAll(readings("HUMIDITY", "%", MIDNIGHT, 7, 900));
        return rows;
    }

    @Test
    void should_draw_one_chart_per_sensor_labelled_by_type_and_id_when_a_type_has_several_sensors() {
        // Given
        List<TelemetryRow> rows = twoTemperatureSensors();

        // When
        ReportDocument html = ReportDocument.parse(HtmlReport.render(report(rows, List.of())));

        // Then: sorted by type, then sensor id; a type whose only sensor is 'default' is labelled by its type
        assertThat(html.all("//svg[@class='chart sensor-chart']"))
                .extracting(c -> c.getAttribute("data-sensor") + "/" + c.getAttribute("data-sensor-id") + "="
                        + c.getAttribute("data-points"))
                .containsExactly("HUMIDITY/default=7", "TEMPERATURE/inside=12", "TEMPERATURE/outside=5");
        List<String> captions = html.all("//figure[svg]/figcaption").stream()
                .map(Element::getTextContent)
                .toList();
        assertThat(captions.get(0))
                .startsWith("HUMIDITY – 7 readings")
                .contains("Sensor id default, the only HUMIDITY sensor in this report");
        assertThat(captions.get(1))
                .startsWith("TEMPERATURE inside – 12 readings")
                .contains("Sensor id inside, one of 2 TEMPERATURE sensors");
        assertThat(captions.get(2)).startsWith("TEMPERATURE outside – 5 readings");
        assertThat(html.all("//svg[@class='chart sensor-chart']"))
                .extracting(c -> c.getAttribute("aria-label"))
                .allSatisfy(
                        label -> assertThat(label).matches("(HUMIDITY|TEMPERATURE inside|TEMPERATURE outside) over.*"));
    }

    @Test
    void should_give_each_sensor_its_own_column_count_and_raw_list_when_a_type_has_several_sensors() {
        // Given
        List<TelemetryRow> rows = twoTemperatureSensors();

        // When
        ReportDocument html = ReportDocument.parse(HtmlReport.render(report(rows, List.of())));

        // Then
        assertThat(html.all("//table[@class='hourly']/thead/tr/th"))
                .extracting(Element::getTextContent)
                .containsExactly(
                        "hour (UTC)",
                        "HUMIDITY (%)mean (min–max)",
                        "TEMPERATURE inside (C)mean (min–max)",
                        "TEMPERATURE outside (C)mean (min–max)",
                        "bees in",
                        "bees out",
                        "samples");
        // 00:00 holds 4 readings of inside (20, 20.25, 20.5, 20.75), 4 of outside, 4 of humidity
        assertThat(html.all("//table[@class='hourly']/tbody/tr[1]/td"))
                .extracting(Element::getTextContent)
                .startsWith("20.38 (20.00–20.75)", "20.38 (20.00–20.75)", "20.38 (20.00–20.75)");
        assertThat(html.one("//table[@class='summary']/tbody/tr[1]/td").getTextContent())
                .isEqualTo("HUMIDITY: 7 · TEMPERATURE inside: 12 · TEMPERATURE outside: 5");
        assertThat(html.all("//details[@class='raw']"))
                .extracting(d -> d.getAttribute("data-sensor") + "/" + d.getAttribute("data-sensor-id"))
                .containsExactly("HUMIDITY/default", "TEMPERATURE/inside", "TEMPERATURE/outside");
        assertThat(html.all("//details[@data-sensor-id='outside']//tbody/tr")).hasSize(5);
    }

    @Test
    void should_label_the_default_sensor_with_its_id_when_its_type_has_other_sensors_too() {
        // Given
        List<TelemetryRow> rows = new ArrayList<>(readings("WEIGHT", "kg", MIDNIGHT, 3, 600));
        rows.addAll(readings("WEIGHT", "scale-2", "kg", MIDNIGHT, 2, 600));

        // When
        ReportDocument html = ReportDocument.parse(HtmlReport.render(report(rows, List.of())));

        // Then
        assertThat(html.all("//figure[svg]/figcaption/strong"))
                .extracting(Element::getTextContent)
                .containsExactly("WEIGHT default", "WEIGHT scale-2");
    }

    @Test
    void should_render_the_same_text_when_rows_come_in_another_order() {
        // Given
        List<TelemetryRow> rows = threeSensors();
        List<TelemetryRow> shuffled = new ArrayList<>(rows);
        Collections.shuffle(shuffled, new Random(7));
        List<ActivityRow> activity = List.of(hour(6, 10, 8), hour(7, 300, 280));

        // When
        String first = HtmlReport.render(report(rows, activity));
        String second = HtmlReport.render(report(shuffled, List.of(activity.get(1), activity.get(0))));

        // Then
        assertThat(second).isEqualTo(first);
    }

    @Test
    void should_format_numbers_with_dots_when_the_default_locale_uses_commas() {
        // Given
        Locale original = Locale.getDefault();
        List<TelemetryRow> rows =
                List.of(new TelemetryRow("3627", "TEMPERATURE", "default", MIDNIGHT, 35.12, "C", null));
        String text;

        // When
        try {
            Locale.setDefault(Locale.GERMANY);
            text = HtmlReport.render(report(rows, List.of(hour(0, 12_345, 1))));
        } finally {
            Locale.setDefault(original);
        }

        // Then
        ReportDocument html = ReportDocument.parse(text);
        assertThat(html.one("//table[@class='raw']/tbody/tr/td[2]").getTextContent())
                .isEqualTo("35.12");
        assertThat(html.one("//table[@class='hourly']/tbody/tr/td[2]").getTextContent())
                .isEqualTo("12,345");
    }

    @Test
    void should_say_so_in_the_caption_when_units_differ_within_a_sensor() {
        // Given
        List<TelemetryRow> rows = List.of(
                new TelemetryRow("3627", "TEMPERATURE", "default", MIDNIGHT, 35.0, "C", null),
                new TelemetryRow("3627", "TEMPERATURE", "default", MIDNIGHT.plusSeconds(60), 95.0, "F", null));

        // When
        ReportDocument html = ReportDocument.parse(HtmlReport.render(report(rows, List.of())));

        // Then
        assertThat(html.one("//figure/figcaption").getTextContent())
                .contains("units differ")
                .contains("C, F");
    }

    @Test
    void should_list_at_most_the_cap_of_raw_readings_and_say_so_when_a_sensor_has_more() {
        // Given
        int count = ReportTables.MAX_RAW_ROWS + 7;
        List<TelemetryRow> rows = readings("WEIGHT", "kg", MIDNIGHT, count, 10);

        // When
        ReportDocument html = ReportDocument.parse(HtmlReport.render(report(rows, List.of())));

        // Then
        assertThat(html.all("//details[@data-sensor='WEIGHT']//tbody/tr")).hasSize(ReportTables.MAX_RAW_ROWS);
        assertThat(html.one("//details[@data-sensor='WEIGHT']/summary").getTextContent())
                .contains("5,007 readings")
                .contains("first 5,000");
    }

    @Test
    void should_show_the_range_generation_time_and_read_statistics_when_rendering_the_header() {
        // Given
        HiveReport report = new HiveReport(
                "3627",
                TimeRange.days(DAY, LocalDate.of(2021, 7, 18)),
                List.of(),
                List.of(hour(6, 1, 1)),
                Instant.parse("2021-07-19T08:30:05Z"),
                "14 partitions read in 0.4 s");

        // When
        ReportDocument html = ReportDocument.parse(HtmlReport.render(report));

        // Then
        String header = html.one("//header").getTextContent();
        assertThat(header)
                .contains("2021-07-12 to 2021-07-18 (UTC)")
                .contains("generated 2021-07-19 08:30:05 UTC")
                .contains("14 partitions read in 0.4 s");
        assertThat(html.one("/html/head/title").getTextContent()).contains("3627");
    }

    @Test
    void should_show_a_note_in_the_header_and_write_units_as_symbols() {
        HiveReport report = new HiveReport(
                "3627",
                TimeRange.days(DAY, DAY),
                List.of(new io.apiary.ingest.read.TelemetryRow(
                        "3627",
                        "TEMPERATURE",
                        "default",
                        DAY.atStartOfDay(java.time.ZoneOffset.UTC).toInstant().plusSeconds(3600),
                        21.5,
                        "degC",
                        "gw")),
                List.of(hour(6, 1, 1)),
                Instant.parse("2021-07-19T08:30:05Z"),
                null,
                "the hourly bees in and out are simulated");

        String rendered = HtmlReport.render(report);
        ReportDocument html = ReportDocument.parse(rendered);

        assertThat(html.one("//header").getTextContent()).contains("Note: the hourly bees in and out are simulated");
        assertThat(rendered).contains("\u00B0C").doesNotContain("degC");
    }

    @Test
    void should_put_the_time_axis_title_on_a_row_below_every_tick_label_so_they_never_collide() {
        // a week of readings: the last tick sits near the right end, with a date under its time
        HiveReport report = new HiveReport(
                "h",
                TimeRange.days(DAY, DAY.plusDays(6)),
                ReportRows.readings(
                        "TEMPERATURE",
                        "degC",
                        DAY.atStartOfDay(java.time.ZoneOffset.UTC).toInstant(),
                        7 * 96,
                        900),
                List.of(hour(6, 1, 1)),
                ReportRows.GENERATED,
                null);

        ReportDocument html = ReportDocument.parse(HtmlReport.render(report));

        for (org.w3c.dom.Element axis : html.all("//*[local-name()='g'][@class='axis x']")) {
            double title = -1;
            double lowestLabel = -1;
            org.w3c.dom.NodeList texts = axis.getElementsByTagName("text");
            for (int i = 0; i < texts.getLength(); i++) {
                org.w3c.dom.Element text = (org.w3c.dom.Element) texts.item(i);
                double y = Double.parseDouble(text.getAttribute("y"));
                if ("axis-title".equals(text.getAttribute("class"))) {
                    title = y;
                } else {
                    lowestLabel = Math.max(lowestLabel, y);
                }
            }
            assertThat(title).as("the axis title's baseline").isGreaterThan(0);
            assertThat(title - lowestLabel)
                    .as("a font's height (12 units) between the lowest tick label and the title")
                    .isGreaterThanOrEqualTo(12);
        }
    }

    @Test
    void should_show_every_time_in_the_display_zone_with_its_offset_when_a_zone_is_given() {
        // Given: a Montreal apiary's readings and bees at 21:00 UTC, 17:00 local (EDT, UTC-04:00)
        java.time.ZoneId toronto = java.time.ZoneId.of("America/Toronto");
        Instant fivePm = Instant.parse("2021-07-12T21:00:00Z");
        HiveReport report = new HiveReport(
                ReportRows.HIVE,
                TimeRange.days(DAY, DAY, toronto),
                readings("TEMPERATURE", "degC", fivePm, 4, 900),
                List.of(new ActivityRow(ReportRows.HIVE, DAY, 21, 420L, 400L, 60)),
                Instant.parse("2021-07-13T08:00:00Z"),
                null,
                null,
                toronto);

        // When
        ReportDocument html = ReportDocument.parse(HtmlReport.render(report));

        // Then
        String zone = "America/Toronto, UTC\u221204:00";
        assertThat(html.one("//header").getTextContent())
                .contains("2021-07-12 (" + zone + ")")
                .contains("generated 2021-07-13 04:00:00 UTC\u221204:00");
        assertThat(html.one("//table[@class='hourly']/thead/tr/th[1]").getTextContent())
                .isEqualTo("hour (" + zone + ")");
        assertThat(html.all("//table[@class='hourly']/tbody/tr/th"))
                .extracting(Element::getTextContent)
                .containsExactly("2021-07-12 17:00");
        assertThat(html.all("//*[local-name()='text'][@class='axis-title']"))
                .extracting(Element::getTextContent)
                .containsOnly(zone);
        assertThat(html.one("//*[local-name()='g'][@class='hour']/*[local-name()='title']")
                        .getTextContent())
                .isEqualTo("2021-07-12 17:00 UTC\u221204:00: 420 in, 400 out");
        assertThat(html.one("//table[@class='raw']/tbody/tr[1]/td[1]").getTextContent())
                .isEqualTo("2021-07-12 17:00:00");
        assertThat(html.one("//table[@class='raw']/thead/tr/th[1]").getTextContent())
                .isEqualTo("time (" + zone + ")");
    }

    @Test
    void should_show_whole_utc_hours_and_say_so_when_the_range_starts_inside_an_hour() {
        // Given: a day of Kolkata (UTC+05:30), which starts at 18:30 UTC
        java.time.ZoneId kolkata = java.time.ZoneId.of("Asia/Kolkata");
        HiveReport report = new HiveReport(
                ReportRows.HIVE,
                TimeRange.days(DAY, DAY, kolkata),
                readings("TEMPERATURE", "degC", Instant.parse("2021-07-11T18:00:00Z"), 4, 900),
                List.of(new ActivityRow(ReportRows.HIVE, DAY.minusDays(1), 18, 4L, 2L, 12)),
                ReportRows.GENERATED,
                null,
                null,
                kolkata);

        // When
        ReportDocument html = ReportDocument.parse(HtmlReport.render(report));

        // Then
        assertThat(html.one("//p[@class='meta widened']").getTextContent())
                .startsWith("Shown from 2021-07-11 23:30 to 2021-07-13 00:30: the range widened to whole UTC hours");
        assertThat(html.all("//table[@class='hourly']/tbody/tr"))
                .extracting(Element::getTextContent)
                .containsExactly("2021-07-11 23:3020.38 (20.00–20.75)4212");
    }
}
