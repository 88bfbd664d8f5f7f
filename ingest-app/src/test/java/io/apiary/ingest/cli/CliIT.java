package io.apiary.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.datastax.oss.driver.api.core.CqlSession;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.config.ConfigLoader;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.it.ItEndpoints;
import io.apiary.ingest.it.SharedStack;
import io.apiary.ingest.pipeline.Pipeline;
import io.apiary.ingest.serde.AvroSingleObjectSerde;
import io.apiary.ingest.tables.TableNames;
import io.apiary.schema.HourlyActivity;
import io.apiary.schema.SensorType;
import io.apiary.schema.TelemetryReading;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The commands as a user runs them, against the shared real stack. */
class CliIT {

    private static final String TOPIC = "cli-it.telemetry";

    private final ItEndpoints stack = SharedStack.get();
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @TempDir
    Path dir;

    @Test
    void should_apply_the_schema_twice_without_error_and_create_every_table() {
        assertThat(run("schema", "apply", "--set", "cassandra.keyspace=cli_it")).isZero();
        assertThat(run("schema", "apply", "--set", "cassandra.keyspace=cli_it"))
                .as(err.toString())
                .isZero();

        assertThat(out.toString()).contains("Applied 5 statements from 5 files to keyspace cli_it");
        try (CqlSession session = CassandraSessions.open(config(Map.of()))) {
            List<String> tables = session
                    .execute("SELECT table_name FROM system_schema.tables WHERE keyspace_name = 'cli_it'")
                    .all()
                    .stream()
                    .map(r -> r.getString(0))
                    .toList();
            assertThat(tables)
                    .containsExactlyInAnyOrder(
                            TableNames.HIVE_TELEMETRY,
                            TableNames.HIVE_ACTIVITY,
                            TableNames.WEATHER_READINGS,
                            TableNames.AGENT_ALERTS);
        }
    }

    @Test
    void should_import_the_readings_it_can_parse_and_report_the_others_with_line_numbers() throws Exception {
        Path csv = dir.resolve("readings.csv");
        Files.writeString(csv, """
                when;hive;temp;rh
                2021-06-01 00:00:00;h1;14.6;56.0
                2021-06-01 01:00:00;h1;not-a-number;57.0
                soon;h1;14.0;50.0
                2021-06-01 02:00:00;h2;13.5;
                """);
        assertThat(run("topics", "create", "--set", "topic.telemetry=" + TOPIC)).isZero();

        int exit = run(
                "import-csv",
                "--file",
                csv.toString(),
                "--time-column",
                "when",
                "--zone",
                "-05:00",
                "--hive-column",
                "hive",
                "--sensor",
                "temp=TEMPERATURE:degC",
                "--sensor",
                "rh=HUMIDITY:%RH",
                "--delimiter",
                ";",
                "--gateway-id",
                "station-7",
                "--set",
                "topic.telemetry=" + TOPIC,
                "--set",
                REPLAY_MAX_AGE);

        assertThat(exit).isZero();
        assertThat(err.toString())
                .contains(
                        "readings.csv: line 3, column 'temp': not a finite decimal number: 'not-a-number'",
                        "readings.csv: line 4, column 'when': cannot read time 'soon'");
        assertThat(err.toString()).as("an empty cell is missing, not a problem").doesNotContain("line 5");
        assertThat(out.toString())
                .contains("4 rows read, 4 readings produced to " + TOPIC + ", 1 rows and 1 cells rejected,"
                        + " 1 cells missing");
        List<ConsumerRecord<String, byte[]>> records = readTopic(4);
        assertThat(records).extracting(ConsumerRecord::key).containsOnly("h1", "h2");
        TelemetryReading first = config(Map.of())
                .wireFormat()
                .serde(TelemetryReading.class, false)
                .decode(records.stream()
                        .filter(r -> r.key().equals("h1"))
                        .findFirst()
                        .orElseThrow()
                        .value());
        assertThat(first)
                .isEqualTo(new TelemetryReading(
                        "h1",
                        "station-7",
                        SensorType.TEMPERATURE,
                        "default",
                        Instant.parse("2021-06-01T05:00:00Z"),
                        14.6,
                        "degC",
                        null));
    }

    @Test
    void should_land_two_columns_of_one_type_as_two_series_and_report_a_conflicting_duplicate() throws Exception {
        String keyspace = "cli_it"; // the schema test's: whichever runs second finds the tables made (DDL is slow)
        List<String> settings = new ArrayList<>(List.of(
                "--set",
                IngestConfig.CASSANDRA_KEYSPACE + "=" + keyspace,
                "--set",
                IngestConfig.VALIDATION_MAX_AGE_MS + "="
                        + Duration.ofDays(365 * 20).toMillis()));
        for (String topic : IngestConfig.TOPIC_NAME_SETTINGS) {
            settings.addAll(List.of("--set", topic + "=cli-it-sensors." + topic));
        }
        assertThat(run(with(settings, "schema", "apply"))).as(err.toString()).isZero();
        assertThat(run(with(settings, "topics", "create"))).as(err.toString()).isZero();
        Path csv = dir.resolve("probes.csv");
        Files.writeString(csv, """
                time,hive,Temp (inside),temp_out,rh
                2021-07-15T11:03:43Z,3627,35.04,21.5,60
                2021-07-15T11:18:43Z,3627,35.2,21.7,61
                2021-07-15T11:03:43Z,3627,35.1,21.5,60
                """);
        String[] importCsv = with(
                settings,
                "import-csv",
                "--file",
                csv.toString(),
                "--time-column",
                "time",
                "--time-format",
                "iso",
                "--hive-column",
                "hive",
                "--sensor",
                "Temp (inside)=TEMPERATURE:degC",
                "--sensor",
                "temp_out=TEMPERATURE:degC",
                "--sensor",
                "rh=HUMIDITY:%RH");

        int exit = run(importCsv);
        List<String> strictImport = new ArrayList<>(List.of(importCsv));
        strictImport.add("--strict");
        int strict = run(strictImport.toArray(String[]::new));

        assertThat(exit).as(err.toString()).isZero();
        assertThat(strict).isEqualTo(3);
        System.out.println(err);
        System.out.println(out);
        assertThat(err.toString())
                .contains(
                        "probes.csv: column 'Temp (inside)' -> TEMPERATURE, sensor Temp_inside, degC\n"
                                + "probes.csv: column 'temp_out' -> TEMPERATURE, sensor temp_out, degC\n"
                                + "probes.csv: column 'rh' -> HUMIDITY, sensor default, %RH\n",
                        "probes.csv: lines 2 and 4: hive 3627 TEMPERATURE sensor Temp_inside at 2021-07-15T11:03:43Z: 35.04 degC"
                                + " and 35.1 degC\n");
        assertThat(out.toString())
                .contains(
                        "probes.csv: 3 rows read, 9 readings produced to cli-it-sensors.topic.telemetry,"
                                + " 0 rows and 0 cells rejected, 0 cells missing, 2 exact duplicates, 1 conflicting duplicates");
        Map<String, Object> pipelineSettings = new HashMap<>(Map.of(
                IngestConfig.CASSANDRA_KEYSPACE,
                keyspace,
                IngestConfig.TOPOLOGY_APPLICATION_ID,
                "cli-it-sensors",
                IngestConfig.SINK_GROUP_ID,
                "cli-it-sensors-sink",
                IngestConfig.VALIDATION_MAX_AGE_MS,
                Duration.ofDays(365 * 20).toMillis(),
                IngestConfig.TOPOLOGY_STATE_DIR,
                dir.resolve("state").toString()));
        IngestConfig.TOPIC_NAME_SETTINGS.forEach(topic -> pipelineSettings.put(topic, "cli-it-sensors." + topic));
        try (Pipeline pipeline = Pipeline.start(config(pipelineSettings), true, true, new SimpleMeterRegistry());
                CqlSession session = CassandraSessions.open(config(Map.of()))) {
            String select = "SELECT sensor_type, sensor_id, reading_time, value FROM " + keyspace + "."
                    + TableNames.HIVE_TELEMETRY;
            await().atMost(Duration.ofMinutes(2))
                    .pollInterval(Duration.ofMillis(500))
                    .untilAsserted(
                            () -> assertThat(session.execute(select).all()).hasSize(6));
            Map<String, Double> rows = new HashMap<>();
            session.execute(select)
                    .forEach(r -> rows.put(
                            r.getString("sensor_type") + " " + r.getString("sensor_id") + " "
                                    + r.getInstant("reading_time"),
                            r.getDouble("value")));
            assertThat(rows)
                    .hasSize(6)
                    .containsAllEntriesOf(Map.of(
                            "TEMPERATURE Temp_inside 2021-07-15T11:18:43Z",
                            35.2,
                            "TEMPERATURE temp_out 2021-07-15T11:03:43Z",
                            21.5,
                            "TEMPERATURE temp_out 2021-07-15T11:18:43Z",
                            21.7,
                            "HUMIDITY default 2021-07-15T11:03:43Z",
                            60.0,
                            "HUMIDITY default 2021-07-15T11:18:43Z",
                            61.0));
            assertThat(rows.get("TEMPERATURE Temp_inside 2021-07-15T11:03:43Z")).isIn(35.04, 35.1);
        }
    }

    @Test
    void should_import_a_one_hive_file_with_comments_grams_and_daylight_saving_changes_as_a_hive_keeper_has_it()
            throws Exception {
        String topic = "cli-it.historical";
        Path csv = dir.resolve("scale.csv");
        Files.writeString(csv, """
                # hive scale export, Europe/Berlin local time
                # weight in grams
                Zeit;Gewicht
                2017-03-26 01:30:00;39850
                2017-03-26 02:30:00;39860
                2017-03-26 03:30:00;39870
                2017-10-29 01:30:00;41000.5
                2017-10-29 02:30:00;41010
                2017-10-29 02:30:00;41020
                2017-10-29 03:30:00;41030
                2023-02-29 12:00:00;41040
                """);
        assertThat(run("topics", "create", "--set", "topic.telemetry=" + topic)).isZero();

        int exit = run(
                "import-csv",
                "--file",
                csv.toString(),
                "--time-column",
                "Zeit",
                "--zone",
                "Europe/Berlin",
                "--hive-id",
                "keeper-hive-1",
                "--comment-prefix",
                "#",
                "--delimiter",
                ";",
                "--dst",
                "infer",
                "--sensor",
                "Gewicht=WEIGHT:g",
                "--set",
                "topic.telemetry=" + topic,
                "--set",
                REPLAY_MAX_AGE);

        assertThat(exit).as(err.toString()).isZero();
        assertThat(err.toString())
                .contains(
                        "scale.csv: column 'Gewicht' -> WEIGHT, sensor default, kg (converted from g)",
                        "scale.csv: line 5, column 'Zeit': cannot read time '2017-03-26 02:30:00'",
                        "does not exist in Europe/Berlin",
                        "scale.csv: line 8, column 'Zeit': resolved: local time 2017-10-29T02:30 occurs twice",
                        "scale.csv: line 9, column 'Zeit': resolved: local time 2017-10-29T02:30 occurs twice",
                        "scale.csv: line 11, column 'Zeit': cannot read time '2023-02-29 12:00:00'");
        assertThat(out.toString())
                .contains("scale.csv: 8 rows read, 6 readings produced to " + topic
                        + ", 2 rows and 0 cells rejected, 0 cells missing, 0 exact duplicates, 0 conflicting duplicates,"
                        + " 2 daylight-saving times resolved (--dst infer), 2 comment lines skipped");
        io.apiary.ingest.serde.AvroWireSerde<TelemetryReading> serde =
                config(Map.of()).wireFormat().serde(TelemetryReading.class, false);
        Map<Instant, Double> kilograms = new HashMap<>();
        for (ConsumerRecord<String, byte[]> record : readTopic(topic, 6)) {
            TelemetryReading reading = serde.decode(record.value());
            assertThat(record.key()).isEqualTo("keeper-hive-1");
            assertThat(reading.getUnit()).isEqualTo("kg");
            kilograms.put(reading.getReadingTime(), reading.getValue());
        }
        assertThat(kilograms)
                .containsExactlyInAnyOrderEntriesOf(Map.of(
                        Instant.parse("2017-03-26T00:30:00Z"),
                        39.85,
                        Instant.parse("2017-03-26T01:30:00Z"),
                        39.87,
                        Instant.parse("2017-10-28T23:30:00Z"),
                        41.0005,
                        Instant.parse("2017-10-29T00:30:00Z"),
                        41.01,
                        Instant.parse("2017-10-29T01:30:00Z"),
                        41.02,
                        Instant.parse("2017-10-29T02:30:00Z"),
                        41.03));
    }

    @Test
    void should_import_a_long_file_with_two_probes_of_one_type_grams_and_kilograms_and_report_every_line_it_skips()
            throws Exception {
        String topic = "cli-it.long";
        Path csv = dir.resolve("long.csv");
        Files.writeString(csv, """
                # hive scale export, one line per reading, Europe/Berlin local time
                time,sensor,value,unit
                2017-10-29 01:30:00,T1,35.1,degC
                2017-10-29 01:30:00,T2,12.4,degC
                2017-10-29 01:30:00,weight,41000.5,g
                2017-10-29 02:30:00,T1,35.0,degC
                2017-10-29 02:30:00,T2,12.1,degC
                2017-10-29 02:30:00,weight,41.01,kg
                2017-10-29 02:30:00,T1,34.9,degC
                2017-10-29 02:30:00,T2,11.8,degC
                2017-10-29 02:30:00,weight,41020,g
                2017-10-29 03:30:00,T1,34.8,degC
                2017-10-29 03:30:00,weight,41.03,degC
                2017-10-29 03:30:00,battery,3.71,V
                2017-10-29 04:30:00,battery,3.70,V
                2017-10-29 04:30:00,T2,,degC
                """);
        assertThat(run("topics", "create", "--set", "topic.telemetry=" + topic)).isZero();

        String[] importLong = with(
                ImportCsvCommandTest.LONG_FORMAT,
                "import-csv",
                "--file",
                csv.toString(),
                "--time-column",
                "time",
                "--zone",
                "Europe/Berlin",
                "--dst",
                "infer",
                "--hive-id",
                "keeper-hive-1",
                "--comment-prefix",
                "#",
                "--sensor",
                "T1=TEMPERATURE:degC",
                "--sensor",
                "T2=TEMPERATURE:degC",
                "--sensor",
                "weight=WEIGHT:kg",
                "--set",
                "topic.telemetry=" + topic,
                "--set",
                REPLAY_MAX_AGE);

        int exit = run(importLong);

        assertThat(exit).as(err.toString()).isZero();
        assertThat(err.toString())
                .contains(
                        "long.csv: sensor name 'T1' -> TEMPERATURE, sensor T1, degC (each line's unit from column"
                                + " 'unit' converted to degC; an empty one is degC)\n",
                        "long.csv: sensor name 'weight' -> WEIGHT, sensor default, kg (each line's unit from column"
                                + " 'unit' converted to kg; an empty one is kg)\n",
                        "long.csv: line 6, column 'time': resolved: local time 2017-10-29T02:30 occurs twice",
                        "long.csv: line 11, column 'time': resolved: local time 2017-10-29T02:30 occurs twice",
                        "long.csv: line 13, column 'unit': sensor name 'weight' is WEIGHT in kg, and 'degC' is not a"
                                + " unit of the same quantity as kg",
                        "long.csv: line 14, column 'sensor': sensor name 'battery' is mapped by no --sensor: its 2 lines"
                                + " (this one to line 15) not read; map it with --sensor 'battery=TYPE:UNIT' to import"
                                + " it\n");
        assertThat(out.toString())
                .contains("long.csv: 14 rows read, 10 readings produced to " + topic
                        + ", 3 rows and 0 cells rejected, 1 cells missing, 0 exact duplicates, 0 conflicting duplicates,"
                        + " 6 daylight-saving times resolved (--dst infer), 1 comment lines skipped");
        io.apiary.ingest.serde.AvroWireSerde<TelemetryReading> serde =
                config(Map.of()).wireFormat().serde(TelemetryReading.class, false);
        List<TelemetryReading> sent = new ArrayList<>();
        List<ConsumerRecord<String, byte[]>> records = readTopic(topic, 11);
        for (ConsumerRecord<String, byte[]> record : records) {
            assertThat(record.key()).isEqualTo("keeper-hive-1");
            sent.add(serde.decode(record.value()));
        }
        Instant first = Instant.parse("2017-10-28T23:30:00Z"); // 01:30 summer time
        Instant firstPass = Instant.parse("2017-10-29T00:30:00Z"); // 02:30 summer time
        Instant secondPass = Instant.parse("2017-10-29T01:30:00Z"); // 02:30 winter time
        Instant after = Instant.parse("2017-10-29T02:30:00Z"); // 03:30 winter time
        assertThat(sent)
                .as("one hive, one partition: the file's order")
                .containsExactly(
                        reading(SensorType.TEMPERATURE, "T1", first, 35.1, "degC"),
                        reading(SensorType.TEMPERATURE, "T2", first, 12.4, "degC"),
                        reading(SensorType.WEIGHT, "default", first, 41.0005, "kg"),
                        reading(SensorType.TEMPERATURE, "T1", firstPass, 35.0, "degC"),
                        reading(SensorType.TEMPERATURE, "T2", firstPass, 12.1, "degC"),
                        reading(SensorType.WEIGHT, "default", firstPass, 41.01, "kg"),
                        reading(SensorType.TEMPERATURE, "T1", secondPass, 34.9, "degC"),
                        reading(SensorType.TEMPERATURE, "T2", secondPass, 11.8, "degC"),
                        reading(SensorType.WEIGHT, "default", secondPass, 41.02, "kg"),
                        reading(SensorType.TEMPERATURE, "T1", after, 34.8, "degC"));
        assertThat(run(with(List.of("--strict"), importLong)))
                .as("four rows rejected")
                .isEqualTo(3);
    }

    private static TelemetryReading reading(SensorType type, String sensorId, Instant time, double value, String unit) {
        return new TelemetryReading("keeper-hive-1", "csv-import", type, sensorId, time, value, unit, null);
    }

    @Test
    void should_exit_3_in_strict_mode_and_2_with_the_header_it_found_when_a_column_is_missing() throws Exception {
        Path csv = dir.resolve("bad.csv");
        Files.writeString(csv, "Date,Tag number,temperature\n2021-06-19 00:04:58+00:00,3629,warm\n");

        int strict = run(
                "import-csv",
                "--file",
                csv.toString(),
                "--time-column",
                "Date",
                "--hive-column",
                "Tag number",
                "--sensor",
                "temperature=TEMPERATURE:degC",
                "--strict",
                "--set",
                "topic.telemetry=" + TOPIC);
        int missing = run(
                "import-csv",
                "--file",
                csv.toString(),
                "--time-column",
                "Date",
                "--hive-column",
                "Tag number",
                "--sensor",
                "humidity=HUMIDITY:%RH",
                "--set",
                "topic.telemetry=" + TOPIC);

        assertThat(strict).isEqualTo(3);
        assertThat(missing).as("refused before anything is sent").isEqualTo(2);
        assertThat(err.toString())
                .contains("bad.csv: The CSV header lacks column(s) 'humidity'; its columns are")
                .doesNotContain("bad.csv: column 'humidity'");
    }

    @Test
    void should_dump_a_topic_as_json_lines_including_a_record_it_cannot_decode() throws Exception {
        String hourlyTopic = "cli-it.hourly.v1";
        assertThat(run("topics", "create", "--set", "topic.hourly.activity=" + hourlyTopic))
                .isZero();
        HourlyActivity hour = new HourlyActivity(
                "3627",
                LocalDate.parse("2021-07-15"),
                17,
                Instant.parse("2021-07-15T17:00:00Z"),
                Instant.parse("2021-07-15T18:00:00Z"),
                2315L,
                2457L,
                60,
                0,
                io.apiary.schema.ResultTiming.ON_TIME,
                0);
        Map<String, Object> settings = new HashMap<>(config(Map.of()).kafkaClientSettings());
        try (KafkaProducer<byte[], byte[]> producer =
                new KafkaProducer<>(settings, new ByteArraySerializer(), new ByteArraySerializer())) {
            byte[] key = "3627".getBytes(StandardCharsets.UTF_8);
            producer.send(new ProducerRecord<>(
                            hourlyTopic,
                            0,
                            key,
                            AvroSingleObjectSerde.of(HourlyActivity.class).encode(hour)))
                    .get();
            producer.send(new ProducerRecord<>(hourlyTopic, 0, key, "not avro".getBytes(StandardCharsets.UTF_8)))
                    .get();
        }

        out.getBuffer().setLength(0); // only the dump's output below
        int exit = run(
                "dump",
                "--topic",
                hourlyTopic,
                "--from-beginning",
                "--timeout-seconds",
                "30",
                "--set",
                "topic.hourly.activity=" + hourlyTopic);

        System.out.println(out);
        assertThat(exit).as(err.toString()).isZero();
        List<String> lines = out.toString().lines().toList();
        assertThat(lines).hasSize(2);
        ObjectMapper json = new ObjectMapper();
        JsonNode first = json.readTree(lines.get(0));
        assertThat(first.get("topic").asText()).isEqualTo(hourlyTopic);
        assertThat(first.get("key").asText()).isEqualTo("3627");
        assertThat(first.get("value")).isEqualTo(json.readTree("""
                {"hive_id":"3627","day":18823,"hour":17,"window_start":1626368400000,
                 "window_end":1626372000000,"entries":2315,"exits":2457,"samples":60,"revision":0,
                 "timing":"ON_TIME","pane_index":0}"""));
        JsonNode second = json.readTree(lines.get(1));
        assertThat(second.get("offset").asLong()).isEqualTo(first.get("offset").asLong() + 1);
        assertThat(second.get("error").asText())
                .contains("Neither registry framing (byte 0, a 4-byte schema id) nor single-object encoding (C3 01)");
        assertThat(second.get("value_base64").asText()).isEqualTo("bm90IGF2cm8=");
        assertThat(err.toString()).contains("2 records printed from " + hourlyTopic);

        assertThat(run("dump", "--topic", "no.such.topic")).isEqualTo(2);
    }

    private int run(String... args) {
        CommandLine cli = IngestApp.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of(
                "--set",
                IngestConfig.KAFKA_BOOTSTRAP_SERVERS + "=" + stack.kafkaBootstrapServers(),
                "--set",
                IngestConfig.CASSANDRA_CONTACT_POINTS + "=" + contactPoint(),
                "--set",
                IngestConfig.CASSANDRA_LOCAL_DATACENTER + "=" + stack.cassandraLocalDatacenter()));
        stack.registrySettings().forEach((k, v) -> all.addAll(List.of("--set", k + "=" + v)));
        return cli.execute(all.toArray(String[]::new));
    }

    /** The maximum age a replay of these old files needs, importer and topology alike. */
    private static final String REPLAY_MAX_AGE =
            IngestConfig.VALIDATION_MAX_AGE_MS + "=" + Duration.ofDays(365 * 20).toMillis();

    private static String[] with(List<String> settings, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(settings);
        return all.toArray(String[]::new);
    }

    private String contactPoint() {
        return stack.cassandraContactPointSetting();
    }

    private IngestConfig config(Map<String, Object> extra) {
        Map<String, Object> settings = new HashMap<>(extra);
        settings.put(IngestConfig.KAFKA_BOOTSTRAP_SERVERS, stack.kafkaBootstrapServers());
        settings.put(IngestConfig.CASSANDRA_CONTACT_POINTS, contactPoint());
        settings.put(IngestConfig.CASSANDRA_LOCAL_DATACENTER, stack.cassandraLocalDatacenter());
        settings.putAll(stack.registrySettings());
        return ConfigLoader.load(null, Map.of(), settings);
    }

    private List<ConsumerRecord<String, byte[]>> readTopic(int expected) {
        return readTopic(TOPIC, expected);
    }

    private List<ConsumerRecord<String, byte[]>> readTopic(String topic, int expected) {
        Map<String, Object> settings = new HashMap<>(config(Map.of()).kafkaClientSettings());
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, "cli-it-" + System.nanoTime());
        settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(settings, new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (records.size() < expected && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
        return records;
    }
}
