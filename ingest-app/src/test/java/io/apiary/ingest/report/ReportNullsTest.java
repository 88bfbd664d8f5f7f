package io.apiary.ingest.report;

import static io.apiary.ingest.report.ReportRows.DAY;
import static io.apiary.ingest.report.ReportRows.HIVE;
import static io.apiary.ingest.report.ReportRows.report;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.read.ActivityRow;
import io.apiary.ingest.read.TelemetryRow;
import io.apiary.ingest.report.Buckets.HourActivity;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;

/** A number whose Cassandra cell is null is absent from the report: not plotted, not summed, never 0. */
class ReportNullsTest {

    private static final Instant TEN = DAY.atTime(10, 0).toInstant(ZoneOffset.UTC);

    private static List<TelemetryRow> readings() {
        return List.of(
                new TelemetryRow(HIVE, "TEMPERATURE", "default", TEN, 30.5, "degC", "gw"),
                new TelemetryRow(HIVE, "TEMPERATURE", "default", TEN.plusSeconds(900), null, "degC", "gw"),
                new TelemetryRow(HIVE, "TEMPERATURE", "default", TEN.plusSeconds(1800), 31.5, "degC", "gw"));
    }

    @Test
    void should_leave_a_null_reading_out_of_the_chart_and_count_it_as_unplotted() {
        // When
        SensorSeries series = SensorSeries.of("TEMPERATURE", "default", 1, readings(), 86_400_000L);

        // Then
        assertThat(series.readings()).hasSize(3);
        assertThat(series.points()).extracting(SensorSeries.Point::value).containsExactly(30.5, 31.5);
        assertThat(series.unplotted()).isEqualTo(1);
    }

    @Test
    void should_sum_only_the_counts_that_are_not_null_when_summing_an_hour() {
        // Given: two rows of one hour, each missing what the other has
        List<ActivityRow> rows =
                List.of(new ActivityRow(HIVE, DAY, 10, null, 5L, 60), new ActivityRow(HIVE, DAY, 10, 3L, null, null));

        // When
        List<HourActivity> hours = Buckets.hours(rows);

        // Then
        assertThat(hours).containsExactly(new HourActivity(TEN.toEpochMilli(), 3L, 5L, 60L));
    }

    @Test
    void should_show_a_dash_not_0_when_every_row_of_an_hour_has_a_null_count() {
        // Given: hour 10 has a null bees_out and samples, hour 12 a null bees_in and a real 0 out
        List<ActivityRow> rows =
                List.of(new ActivityRow(HIVE, DAY, 10, 5L, null, null), new ActivityRow(HIVE, DAY, 12, null, 0L, 3));

        // When
        ReportDocument html = ReportDocument.parse(HtmlReport.render(ReportRows.report(List.of(), rows)));

        // Then
        assertThat(html.all("//table[@class='hourly']/tbody/tr"))
                .extracting(org.w3c.dom.Element::getTextContent)
                .containsExactly("2021-07-12 10:005––", "2021-07-12 12:00–03");
        assertThat(html.all("//*[local-name()='g'][@class='hour']/*[local-name()='title']"))
                .extracting(org.w3c.dom.Element::getTextContent)
                .containsExactly(
                        "2021-07-12 10:00 UTC: 5 in, – (null) out", "2021-07-12 12:00 UTC: – (null) in, 0 out");
    }

    @Test
    void should_show_a_null_reading_as_a_dash_and_average_the_others_when_rendering() {
        // When
        ReportDocument html = ReportDocument.parse(
                HtmlReport.render(report(readings(), List.of(new ActivityRow(HIVE, DAY, 10, 12L, null, 60)))));

        // Then
        Element chart = html.one("//svg[@class='chart sensor-chart']");
        assertThat(ReportDocument.plottedPoints(chart)).isEqualTo(2);
        assertThat(html.all("//table[@class='raw']/tbody/tr/td[2]"))
                .extracting(Element::getTextContent)
                .containsExactly("30.5", "–", "31.5");
        assertThat(html.one("//table[@class='hourly']/tbody/tr").getTextContent())
                .startsWith("2021-07-12 10:0031.0 (30.5–31.5)12");
    }
}
