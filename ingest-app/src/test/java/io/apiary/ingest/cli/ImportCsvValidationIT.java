package io.apiary.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.it.RunningPipeline;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code import-csv} of a messy logger file on the real stack, the topology and the sink running:
 * what the importer names by line is exactly what it withholds, the topology dead-letters nothing
 * else, and every reading sent lands in {@code hive_telemetry_v2}. A reading the importer sends but
 * the topology refuses (the two configured apart) comes back by line through {@code --await}, and
 * its dead letter keeps the import's run and line headers, which {@code dump} shows with the value
 * decoded.
 */
class ImportCsvValidationIT {

    /**
     * Berlin local time through the autumn change of 2025 (02:00 to 03:00 comes twice), with a
     * temperature logger's -100 and -999 for "no reading", a scale's 9999, tare drift (-3.5 kg
     * inside the tolerance, -12.5 kg outside), humidity at 100.1 and 103 (inside) and 103.5
     * (outside), nan and empty cells. Line numbers count the header as line 1.
     */
    private static final String MESSY = """
            time,temp,rh,weight
            2025-10-26 01:50:00,12.5,98.0,42.1
            2025-10-26 02:00:00,-100,100.1,-3.5
            2025-10-26 02:10:00,nan,103,41.9
            2025-10-26 02:20:00,12.1,103.5,
            2025-10-26 02:00:00,12.0,100.0,-12.5
            2025-10-26 02:10:00,11.9,99.9,9999
            2025-10-26 03:00:00,-999,,41.5
            2025-10-26 03:10:00,11.5,104.5,41.4
            """;

    private static RunningPipeline pipeline;
    private static IngestConfig config;

    @TempDir
    static Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeAll
    static void startPipeline() {
        pipeline = RunningPipeline.start("import-csv-validation", Map.of(IngestConfig.TOPIC_PARTITIONS, 1));
        config = pipeline.config();
    }

    @AfterAll
    static void stopPipeline() {
        if (pipeline != null) {
            pipeline.close();
        }
    }

    @Test
    void what_the_importer_names_is_what_it_withholds_and_the_topology_dead_letters_nothing_else() throws Exception {
        Path file = Files.writeString(dir.resolve("messy.csv"), MESSY);

        int exit = importFile(file, "messy-1");

        assertThat(exit).as(err.toString()).isZero();
        // 8 rows of 3 cells: 24 cells; 2 empty (missing); nan and 6 out of range rejected; 15 sent
        assertThat(namedCells())
                .containsExactly(
                        "line 3, column 'temp': not sent, the topology would dead-letter it (OUT_OF_RANGE)",
                        "line 4, column 'temp': not a finite decimal number: 'nan'",
                        "line 5, column 'rh': not sent, the topology would dead-letter it (OUT_OF_RANGE)",
                        "line 6, column 'weight': not sent, the topology would dead-letter it (OUT_OF_RANGE)",
                        "line 7, column 'weight': not sent, the topology would dead-letter it (OUT_OF_RANGE)",
                        "line 8, column 'temp': not sent, the topology would dead-letter it (OUT_OF_RANGE)",
                        "line 9, column 'rh': not sent, the topology would dead-letter it (OUT_OF_RANGE)");
        assertThat(out.toString())
                .contains("messy.csv: 8 rows read, 15 readings produced to "
                        + config.topics().telemetry()
                        + ", 0 rows and 7 cells rejected (6 readings the topology would dead-letter, not sent:"
                        + " OUT_OF_RANGE 6), 2 cells missing, 0 exact duplicates, 0 conflicting duplicates,"
                        + " 5 daylight-saving times resolved (--dst infer)")
                .contains("messy.csv: the topology consumed all 15 readings: 15 passed to the sink, 0 dead-lettered");
        awaitRows("messy-1", 15);
    }

    @Test
    void missing_value_markers_are_missing_not_rejected() throws Exception {
        Path file = Files.writeString(dir.resolve("markers.csv"), MESSY);

        int exit = importFile(file, "messy-2", "--missing-values", "-100,-999,9999,nan", "--strict");

        assertThat(exit).as("two readings out of range, --strict").isEqualTo(3);
        assertThat(namedCells())
                .containsExactly(
                        "line 5, column 'rh': not sent, the topology would dead-letter it (OUT_OF_RANGE)",
                        "line 6, column 'weight': not sent, the topology would dead-letter it (OUT_OF_RANGE)",
                        "line 9, column 'rh': not sent, the topology would dead-letter it (OUT_OF_RANGE)");
        assertThat(out.toString())
                .contains(", 0 rows and 3 cells rejected (3 readings the topology would dead-letter, not sent:"
                        + " OUT_OF_RANGE 3), 6 cells missing (2 empty; --missing-values '-100' 1, '-999' 1, '9999' 1,"
                        + " 'nan' 1),")
                .contains("the topology consumed all 15 readings: 15 passed to the sink, 0 dead-lettered");
        awaitRows("messy-2", 15);
    }

    @Test
    void a_reading_the_topology_refuses_comes_back_by_line_and_its_dead_letter_keeps_the_import_headers()
            throws Exception {
        Path file = Files.writeString(dir.resolve("wide.csv"), MESSY);

        // the importer configured apart from the topology: it accepts humidity up to 110 %RH
        int exit = importFile(file, "messy-3", "--set", "validation.range.humidity=0,110");

        assertThat(exit).isZero();
        assertThat(err.toString())
                .contains("wide.csv: dead-lettered: line 5: OUT_OF_RANGE, hive messy-3 HUMIDITY/default at"
                        + " 2025-10-26T00:20:00Z: 103.5 %RH: value of HUMIDITY 103.5 %RH is outside the accepted range"
                        + " [0, 103] %RH (validation.range.humidity)")
                .contains("wide.csv: dead-lettered: line 9: OUT_OF_RANGE");
        assertThat(out.toString())
                .contains("the topology consumed all 17 readings: 15 passed to the sink, 2 dead-lettered");

        out.getBuffer().setLength(0);
        int dumped = run("dump", "--topic", config.topics().deadLetter(), "--from-beginning", "--max-records", "100");
        assertThat(dumped).as(err.toString()).isZero();
        List<String> lines = Arrays.stream(out.toString().split("\n"))
                .filter(l -> l.contains("\"apiary.import.lines\",\"value\":\"5\"") && l.contains("messy-3"))
                .toList();
        assertThat(lines)
                .singleElement()
                .satisfies(line -> assertThat(line)
                        .contains("\"key\":\"apiary.import.run\"")
                        .contains("\"key\":\"apiary.dlq.reason\",\"value\":\"OUT_OF_RANGE\"")
                        .contains("\"value\":{\"hive_id\":\"messy-3\"")
                        .contains("\"value\":103.5"));
    }

    private int importFile(Path file, String hive, String... more) {
        List<String> args = new ArrayList<>(List.of(
                "import-csv",
                "--file",
                file.toString(),
                "--time-column",
                "time",
                "--zone",
                "Europe/Berlin",
                "--dst",
                "infer",
                "--hive-id",
                hive,
                "--sensor",
                "temp=TEMPERATURE:degC",
                "--sensor",
                "rh=HUMIDITY:%RH",
                "--sensor",
                "weight=WEIGHT:kg",
                "--await",
                "--await-timeout-seconds",
                "120"));
        args.addAll(List.of(more));
        return run(args.toArray(String[]::new));
    }

    /** Each cell the importer named (not the resolved daylight-saving times), cut after its reason. */
    private List<String> namedCells() {
        Pattern named = Pattern.compile(
                "\\.csv: (line \\d+, column '\\w+': (not sent, [^:]+|not a finite decimal number: '\\w+'))");
        List<String> found = new ArrayList<>();
        for (String line : err.toString().split("\n")) {
            Matcher m = named.matcher(line);
            if (m.find()) {
                found.add(m.group(1));
            }
        }
        return new ArrayList<>(new TreeSet<>(found));
    }

    private void awaitRows(String hive, long expected) {
        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(() -> assertThat(pipeline.session()
                                .execute(
                                        "SELECT count(*) FROM " + config.getString(IngestConfig.CASSANDRA_KEYSPACE)
                                                + ".hive_telemetry_v2 WHERE hive_id = ? ALLOW FILTERING",
                                        hive)
                                .one()
                                .getLong(0))
                        .as("rows of " + hive + " in hive_telemetry_v2")
                        .isEqualTo(expected));
    }

    private int run(String... args) {
        return RunningPipeline.run(out, err, pipeline.settings(), args);
    }
}
