package io.apiary.ingest.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.apiary.ingest.cli.IngestApp;
import io.apiary.ingest.config.ConfigLoader;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.it.ItEndpoints;
import io.apiary.ingest.it.SharedStack;
import io.apiary.ingest.pipeline.RegistrySubjects;
import io.apiary.ingest.topics.Topics;
import io.apiary.schema.TelemetryReading;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Random;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The registry framing against the local stack's real schema registry (Apicurio Registry's
 * Confluent-compatible API): every topic's schema round trip, the two framings side by side, the
 * subjects registered and checked (also by two clients at once), an incompatible subject refused,
 * an unreachable registry told apart from bad input; the published schemas of {@code schemas/}
 * found by a client that sends the files, and a subject holding the Java flavour of an earlier
 * release migrated.
 */
class RegistryWireFormatIT {

    private static ItEndpoints stack;
    private static String url;

    @BeforeAll
    static void stack() {
        // initialises the serde class, which makes Avro trust the generated classes (RandomRecords, SpecificData
        // .getClass), whichever test runs first
        AvroSingleObjectSerde.limitValueSizes();
        stack = SharedStack.get();
        url = stack.registryUrl().orElseThrow(() -> new IllegalStateException("the shared stack runs no registry"));
    }

    private static IngestConfig config(String prefix, Map<String, Object> extra) {
        Map<String, Object> settings = new java.util.HashMap<>(stack.clientSettings());
        for (String key : IngestConfig.TOPIC_NAME_SETTINGS) {
            settings.put(key, prefix + "." + key);
        }
        settings.putAll(extra);
        return ConfigLoader.load(null, Map.of(), settings);
    }

    @Test
    void every_topic_schema_round_trips_through_the_registry_in_its_framing_under_its_subject() {
        Topics topics = config("rt", Map.of()).topics();
        Random random = new Random(20261203L);
        List<String> checked = new ArrayList<>();
        for (SchemaSubjects.Subject subject : topics.avroSubjects()) {
            AvroWireSerde<SpecificRecord> serde = serde(topics.wireFormat(), subject);
            for (int i = 0; i < 20; i++) {
                SpecificRecord record = RandomRecords.of(subject.schema(), random);
                byte[] bytes = serde.encode(subject.topic(), record);
                assertThat(bytes[0]).isEqualTo(AvroWireSerde.MAGIC_BYTE);
                int id = ByteBuffer.wrap(bytes, 1, 4).getInt();
                assertThat(topics.wireFormat().registry().lookup(subject.name(), subject.schema()))
                        .hasValue(id);
                assertThat(serde.decode(bytes)).as(subject.name()).isEqualTo(record);
            }
            checked.add(subject.name());
        }
        assertThat(checked).hasSize(14).contains("rt.topic.telemetry-value", "rt.topic.telemetry.rows-key");
    }

    @Test
    void single_object_records_are_read_while_the_setting_allows_them_and_refused_with_its_name_after() {
        Topics lenient = config("so", Map.of()).topics();
        Topics strict = config("so", Map.of(RegistrySettings.WIRE_FORMAT_READ_SINGLE_OBJECT, false))
                .topics();
        TelemetryReading reading =
                (TelemetryReading) RandomRecords.of(TelemetryReading.getClassSchema(), new Random(7));
        byte[] singleObject = AvroSingleObjectSerde.of(TelemetryReading.class).encode(reading);
        byte[] framed = lenient.telemetryTopic().valueSerde().serializer().serialize(lenient.telemetry(), reading);

        assertThat(lenient.telemetryTopic().valueSerde().deserializer().deserialize(lenient.telemetry(), singleObject))
                .isEqualTo(reading);
        assertThat(strict.telemetryTopic().valueSerde().deserializer().deserialize(strict.telemetry(), framed))
                .isEqualTo(reading);
        assertThatThrownBy(() -> strict.telemetryTopic()
                        .valueSerde()
                        .deserializer()
                        .deserialize(strict.telemetry(), singleObject))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("wire.format.read.single.object=false");
        // The old writers can still be chosen while consumers are being upgraded.
        Topics old = config("so", Map.of(RegistrySettings.WIRE_FORMAT_WRITE, "single-object"))
                .topics();
        assertThat(old.telemetryTopic().valueSerde().serializer().serialize(old.telemetry(), reading))
                .isEqualTo(singleObject);
    }

    @Test
    void an_unknown_schema_id_or_a_corrupt_body_is_bad_input_with_its_reason() {
        Topics topics = config("bad", Map.of()).topics();
        AvroWireSerde<TelemetryReading> serde = topics.wireFormat().serde(TelemetryReading.class, false);
        assertThatThrownBy(() -> serde.decode(new byte[] {0, 0x7f, 0, 0, 1, 2, 3}))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("Schema id " + 0x7f000001);
        byte[] good = serde.encode(topics.telemetry(), (TelemetryReading)
                RandomRecords.of(TelemetryReading.getClassSchema(), new Random(3)));
        byte[] longer = java.util.Arrays.copyOf(good, good.length + 1);
        assertThatThrownBy(() -> serde.decode(longer))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("Bytes follow");
        // The id of another subject's record type: resolution fails, the reason names both.
        int otherId = topics.wireFormat()
                .registry()
                .register("bad.other-value", io.apiary.schema.AgentAlert.getClassSchema());
        byte[] other = good.clone();
        ByteBuffer.wrap(other, 1, 4).putInt(otherId);
        assertThatThrownBy(() -> serde.decode(other))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("cannot be read as io.apiary.schema.TelemetryReading");
    }

    @Test
    void registry_register_sets_full_transitive_with_every_kept_version_and_is_harmless_twice() {
        String prefix = "reg";
        List<String> args = new ArrayList<>(List.of("registry", "register"));
        config(prefix, Map.of()).originalsStrings().forEach((k, v) -> args.addAll(List.of("--set", k + "=" + v)));
        for (int run = 0; run < 2; run++) {
            java.io.StringWriter out = new java.io.StringWriter();
            java.io.StringWriter err = new java.io.StringWriter();
            CommandLine cli = IngestApp.commandLine();
            cli.setOut(new java.io.PrintWriter(out, true));
            cli.setErr(new java.io.PrintWriter(err, true));
            assertThat(cli.execute(args.toArray(String[]::new)))
                    .as(err.toString())
                    .isZero();
            assertThat(out.toString())
                    .contains(prefix + ".topic.telemetry-value")
                    .contains("compatibility FULL_TRANSITIVE");
        }
        SchemaRegistryClient registry = config(prefix, Map.of()).wireFormat().registry();
        String subject = prefix + ".topic.telemetry-value";
        int kept = SchemaVersions.load("TelemetryReading", TelemetryReading.class.getClassLoader())
                .size();
        assertThat(registry.versions(subject)).hasSize(kept);
        assertThat(registry.compatibility(subject)).hasValue("FULL_TRANSITIVE");
        // The registry now refuses a change the build refuses too: a field's type changed.
        Schema incompatible = new Schema.Parser()
                .parse(TelemetryReading.getClassSchema()
                        .toString()
                        .replace("\"name\":\"value\",\"type\":\"double\"", "\"name\":\"value\",\"type\":\"boolean\""));
        assertThat(incompatible.toString())
                .isNotEqualTo(TelemetryReading.getClassSchema().toString());
        assertThatThrownBy(() -> registry.register(subject, incompatible))
                .isInstanceOf(SchemaRegistryException.class)
                .satisfies(
                        e -> assertThat(((SchemaRegistryException) e).status()).isEqualTo(409));
    }

    @Test
    void two_processes_registering_a_new_subject_at_once_both_succeed() throws Exception {
        // the topology and the sink start together and both register every missing subject: Apicurio
        // Registry answers 409 "already exists" to the one that loses the race to create a subject
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 10; round++) {
                SchemaSubjects.Subject subject =
                        new SchemaSubjects.Subject("race" + round, false, TelemetryReading.class);
                java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(2);
                List<java.util.concurrent.Future<SchemaSubjects.Outcome>> outcomes = new ArrayList<>();
                for (int process = 0; process < 2; process++) {
                    // a client each, as two processes have: no shared cache
                    SchemaRegistryClient registry = new SchemaRegistryClient(RegistrySettings.of(url));
                    outcomes.add(pool.submit(() -> {
                        start.await(10, java.util.concurrent.TimeUnit.SECONDS);
                        return SchemaSubjects.register(registry, subject);
                    }));
                }
                int first = outcomes.get(0)
                        .get(60, java.util.concurrent.TimeUnit.SECONDS)
                        .id();
                int second = outcomes.get(1)
                        .get(60, java.util.concurrent.TimeUnit.SECONDS)
                        .id();
                assertThat(first).as(subject.name()).isNotNegative().isEqualTo(second);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void the_pipeline_refuses_to_start_on_a_subject_that_does_not_fit_and_says_which() {
        IngestConfig config = config("clash", Map.of());
        SchemaRegistryClient registry = config.wireFormat().registry();
        String subject = "clash.topic.hourly.activity-value";
        registry.register(
                subject,
                new Schema.Parser()
                        .parse("{\"type\":\"record\",\"name\":\"HourlyActivity\",\"namespace\":\"io.apiary.schema\","
                                + "\"fields\":[{\"name\":\"hive_id\",\"type\":\"long\"}]}"));
        assertThatThrownBy(() -> RegistrySubjects.prepare(config.topics()))
                .isInstanceOf(SchemaSubjects.IncompatibleSubjectException.class)
                .hasMessageContaining(subject)
                .hasMessageContaining("version 1");
        IngestConfig noRegistering = config("missing", Map.of(RegistrySettings.REGISTRY_AUTO_REGISTER, false));
        assertThatThrownBy(() -> RegistrySubjects.prepare(noRegistering.topics()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("registry register");
    }

    @Test
    void an_unreachable_registry_is_a_fault_of_the_moment_not_bad_input() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        SchemaRegistryClient gone = new SchemaRegistryClient(new RegistrySettings(
                List.of(java.net.URI.create("http://127.0.0.1:" + port)),
                null,
                null,
                null,
                Duration.ofSeconds(2),
                Duration.ofMillis(10),
                1));
        AvroWireSerde<TelemetryReading> serde = WireFormat.registry(gone).serde(TelemetryReading.class, false);
        assertThatThrownBy(() -> serde.decode(new byte[] {0, 0, 0, 0, 1, 2}))
                .isInstanceOf(SchemaRegistryException.class)
                .satisfies(e ->
                        assertThat(SchemaRegistryException.unavailableIn(e)).isTrue())
                .hasMessageContaining("unreachable");
    }

    @Test
    void after_the_pipeline_registered_a_lookup_of_each_avsc_file_as_a_client_sends_it_finds_the_id() throws Exception {
        Topics topics = config("pub", Map.of()).topics();
        RegistrySubjects.prepare(topics); // what `run` does at start
        Random random = new Random(20261207L);
        List<String> found = new ArrayList<>();
        for (SchemaSubjects.Subject subject : topics.avroSubjects()) {
            OptionalInt id = lookupAsAClientSendingTheFile(subject);
            assertThat(id).as(subject.name()).isPresent();
            // and it is the id the pipeline's writer frames its records with
            byte[] bytes = serde(topics.wireFormat(), subject)
                    .encode(subject.topic(), RandomRecords.of(subject.schema(), random));
            assertThat(ByteBuffer.wrap(bytes, 1, 4).getInt()).as(subject.name()).isEqualTo(id.getAsInt());
            found.add(subject.name());
        }
        assertThat(found).hasSize(14);
    }

    @Test
    void registry_register_migrates_a_java_flavoured_subject_without_a_duplicate_and_old_ids_stay_readable()
            throws Exception {
        String prefix = "mig";
        IngestConfig config = config(prefix, Map.of());
        Topics topics = config.topics();
        SchemaRegistryClient registry = config.wireFormat().registry();
        SchemaSubjects.Subject telemetry = topics.avroSubjects().get(0);
        String subject = telemetry.name();
        assertThat(subject).isEqualTo(prefix + ".topic.telemetry-value");
        // the subject as an earlier release left it: the kept versions, the current one as the generated class has it
        List<Schema> kept = SchemaVersions.load("TelemetryReading", TelemetryReading.class.getClassLoader());
        for (Schema version : kept.subList(0, kept.size() - 1)) {
            registry.register(subject, version);
        }
        registry.setCompatibility(subject, SchemaSubjects.COMPATIBILITY);
        int javaId = registry.register(subject, TelemetryReading.getClassSchema());
        assertThat(TelemetryReading.getClassSchema().toString()).contains("avro.java.string");
        assertThat(lookupAsAClientSendingTheFile(telemetry)).isEmpty();
        // a record written before the migration, by this release's writer: the Java-flavoured id, nothing registered
        TelemetryReading reading =
                (TelemetryReading) RandomRecords.of(TelemetryReading.getClassSchema(), new Random(11));
        byte[] old = config.wireFormat().serde(TelemetryReading.class, false).encode(topics.telemetry(), reading);
        assertThat(ByteBuffer.wrap(old, 1, 4).getInt()).isEqualTo(javaId);
        assertThat(registry.versions(subject)).hasSize(kept.size());

        Cli before = cli(prefix, "check");
        assertThat(before.exit()).isEqualTo(1);
        assertThat(before.out()).containsPattern(subject + " +only Java-flavoured, id " + javaId);

        Cli migrated = cli(prefix, "register");
        assertThat(migrated.exit()).as(migrated.err()).isZero();
        assertThat(migrated.out()).contains("1 Java-flavoured superseded");

        // one version per parsing canonical form, the current one in the published text
        List<Integer> versions = registry.versions(subject);
        assertThat(versions).hasSize(kept.size());
        List<Long> forms = new ArrayList<>();
        for (int version : versions) {
            forms.add(org.apache.avro.SchemaNormalization.parsingFingerprint64(
                    registry.version(subject, version).schema()));
        }
        assertThat(forms).doesNotHaveDuplicates();
        OptionalInt published = lookupAsAClientSendingTheFile(telemetry);
        assertThat(published).isPresent();
        assertThat(published.getAsInt()).isNotEqualTo(javaId);
        assertThat(registry.version(subject, versions.get(versions.size() - 1)).id())
                .isEqualTo(published.getAsInt());

        // a new process (no cache) still reads the record written with the old id, and writes with the new one
        IngestConfig fresh = config(prefix, Map.of());
        AvroWireSerde<TelemetryReading> reader = fresh.wireFormat().serde(TelemetryReading.class, false);
        assertThat(reader.decode(old)).isEqualTo(reading);
        byte[] now = reader.encode(topics.telemetry(), reading);
        assertThat(ByteBuffer.wrap(now, 1, 4).getInt()).isEqualTo(published.getAsInt());

        Cli after = cli(prefix, "check");
        assertThat(after.exit()).as(after.out() + after.err()).isZero();
        assertThat(after.out()).containsPattern(subject + " +id " + published.getAsInt() + " published  ");
        Cli again = cli(prefix, "register");
        assertThat(again.exit()).isZero();
        assertThat(again.out()).doesNotContain("superseded").doesNotContain("registered now");
        assertThat(registry.versions(subject)).isEqualTo(versions);
    }

    /**
     * Looks a subject's schema up as a client without Avro's Java library does: the {@code .avsc}
     * file of {@code schemas/} as compact JSON (what {@code JSON.stringify} of the parsed file
     * gives), posted to {@code /subjects/<subject>}.
     */
    private static OptionalInt lookupAsAClientSendingTheFile(SchemaSubjects.Subject subject) throws Exception {
        ObjectMapper json = new ObjectMapper();
        String file = Files.readString(
                SchemaEvolutionTest.schemasDir().resolve(subject.schema().getName() + ".avsc"));
        String body = json.createObjectNode()
                .put("schema", json.readTree(file).toString())
                .toString();
        HttpResponse<String> answer = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(
                                        url + "/subjects/" + URLEncoder.encode(subject.name(), StandardCharsets.UTF_8)))
                                .header("Content-Type", SchemaRegistryClient.MEDIA_TYPE)
                                .POST(HttpRequest.BodyPublishers.ofString(body))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() == 404) {
            return OptionalInt.empty();
        }
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        return OptionalInt.of(json.readTree(answer.body()).path("id").asInt());
    }

    private record Cli(int exit, String out, String err) {}

    /** Runs {@code registry <command>} with the configuration of a topic name prefix. */
    private static Cli cli(String prefix, String command) {
        List<String> args = new ArrayList<>(List.of("registry", command));
        config(prefix, Map.of()).originalsStrings().forEach((k, v) -> args.addAll(List.of("--set", k + "=" + v)));
        java.io.StringWriter out = new java.io.StringWriter();
        java.io.StringWriter err = new java.io.StringWriter();
        CommandLine cli = IngestApp.commandLine();
        cli.setOut(new java.io.PrintWriter(out, true));
        cli.setErr(new java.io.PrintWriter(err, true));
        int exit = cli.execute(args.toArray(String[]::new));
        return new Cli(exit, out.toString(), err.toString());
    }

    @SuppressWarnings("unchecked")
    private static AvroWireSerde<SpecificRecord> serde(WireFormat format, SchemaSubjects.Subject subject) {
        Class<SpecificRecord> type = (Class<SpecificRecord>)
                org.apache.avro.specific.SpecificData.get().getClass(subject.schema());
        return format.serde(type, subject.key());
    }
}
