package io.apiary.ingest.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.importer.CsvReadingParser;
import io.apiary.ingest.importer.DuplicateReadings;
import io.apiary.ingest.importer.ReadingTimeParser;
import io.apiary.ingest.importer.SensorColumnSpec;
import io.apiary.ingest.importer.SensorMapping;
import io.apiary.schema.TelemetryReading;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The bundled UrBAN file read as the README's {@code import-csv} command reads it: what the
 * duplicate check finds, and that the demo (which reads it with {@link UrbanDataset#parser}) gets
 * the same readings.
 */
class UrbanDuplicatesTest {

    @Test
    void should_find_the_exact_duplicates_and_conflicts_of_the_bundled_file() throws IOException {
        CsvReadingParser parser = new CsvReadingParser(
                "Date",
                new ReadingTimeParser("yyyy-MM-dd HH:mm:ss[XXX]", ZoneOffset.UTC),
                "Tag number",
                SensorMapping.resolve(List.of(
                        SensorColumnSpec.parse("temperature=TEMPERATURE:degC"),
                        SensorColumnSpec.parse("humidity=HUMIDITY:%RH"))),
                UrbanDataset.GATEWAY_ID,
                ',');
        DuplicateReadings duplicates = new DuplicateReadings(DuplicateReadings.DEFAULT_LIMIT);
        List<TelemetryReading> readings = new ArrayList<>();
        List<String> conflicts = new ArrayList<>();
        List<CsvReadingParser.Problem> problems = new ArrayList<>();

        CsvReadingParser.Totals totals;
        try (Reader in = new InputStreamReader(
                UrbanDataset.class.getResourceAsStream(UrbanDataset.RESOURCE), StandardCharsets.UTF_8)) {
            totals = parser.parseWithLines(
                    in,
                    (reading, line) -> {
                        readings.add(reading);
                        DuplicateReadings.Conflict conflict = duplicates.offer(reading, line);
                        if (conflict != null) {
                            conflicts.add(conflict.toString());
                        }
                    },
                    problems::add);
        }

        assertThat(totals).isEqualTo(new CsvReadingParser.Totals(80_236, 160_472, 0, 0));
        assertThat(problems).isEmpty();
        assertThat(duplicates.duplicates()).isEqualTo(28_123);
        assertThat(duplicates.conflicts()).isEqualTo(155);
        assertThat(duplicates.held()).isEqualTo(132_194);
        assertThat(duplicates.partial()).isNull();
        assertThat(conflicts)
                .startsWith("lines 19038 and 19039: hive 3631 TEMPERATURE sensor default at"
                        + " 2021-10-22T01:31:37Z: 30.03 degC and 30.28 degC");
        UrbanDataset demo = UrbanDataset.load();
        assertThat(readings).isEqualTo(demo.readings());
        assertThat(demo.distinctReadings())
                .as("what the demo's summary expects in Cassandra")
                .isEqualTo(132_194);
        assertThat(demo.conflictingReadings())
                .as("the demo's summary counts as the importer does")
                .isEqualTo(155);
    }
}
