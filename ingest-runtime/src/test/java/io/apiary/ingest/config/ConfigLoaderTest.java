package io.apiary.ingest.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {

    @TempDir
    Path dir;

    @Test
    void should_let_environment_override_the_file_and_explicit_settings_override_both() throws Exception {
        Path file = dir.resolve("app.properties");
        Files.writeString(file, "kafka.bootstrap.servers=file:9092\ntelemetry.shards=48\nsink.batch.max.rows=50\n");

        IngestConfig config = ConfigLoader.load(
                file,
                Map.of(
                        "APIARY_TELEMETRY_SHARDS",
                        "24",
                        "APIARY_KAFKA_SASL_JAAS_CONFIG",
                        "secret-jaas",
                        "HOME",
                        "/root"),
                Map.of(IngestConfig.SINK_BATCH_MAX_ROWS, "20"));

        assertThat(config.getInt(IngestConfig.TELEMETRY_SHARDS)).isEqualTo(24);
        assertThat(config.getInt(IngestConfig.SINK_BATCH_MAX_ROWS)).isEqualTo(20);
        assertThat(config.kafkaClientSettings())
                .containsEntry("bootstrap.servers", "file:9092")
                .containsEntry("sasl.jaas.config", "secret-jaas");
    }

    @Test
    void should_single_out_pass_through_settings_their_kafka_clients_do_not_know() {
        IngestConfig config = ConfigLoader.load(
                null,
                Map.of(),
                Map.of(
                        "kafka.security.protocol",
                        "SASL_SSL",
                        "kafka.security.protocl",
                        "SASL_SSL",
                        "streams.num.standby.replicas",
                        "1",
                        "streams.num.standby.replicaz",
                        "1",
                        "streams.producer.linger.ms",
                        "5",
                        "streams.topic.segment.bytes",
                        "1000000",
                        "sink.consumer.fetch.min.bytes",
                        "1",
                        "sink.consumer.num.standby.replicas",
                        "1"));

        assertThat(config.unknownSettings())
                .containsExactly(
                        "kafka.security.protocl", "sink.consumer.num.standby.replicas", "streams.num.standby.replicaz");
    }

    @Test
    void should_mask_secrets_when_describing_the_configuration() {
        IngestConfig config = ConfigLoader.load(
                null,
                Map.of(),
                Map.of("kafka.sasl.jaas.config", "user pass", "kafka.ssl.truststore.password", "changeit"));

        assertThat(config.describe())
                .containsEntry("kafka.sasl.jaas.config", "[hidden]")
                .containsEntry("kafka.ssl.truststore.password", "[hidden]")
                .containsEntry(IngestConfig.TELEMETRY_SHARDS, "96");
        assertThat(config.describe().toString()).doesNotContain("changeit", "user pass");
    }

    @Test
    void should_name_the_option_and_its_accepted_values_when_a_value_is_invalid() {
        assertThatThrownBy(() ->
                        ConfigLoader.load(null, Map.of(), Map.of(IngestConfig.TELEMETRY_SHARD_STRATEGY, "random")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(IngestConfig.TELEMETRY_SHARD_STRATEGY)
                .hasMessageContaining("time, hash");
        assertThatThrownBy(() -> ConfigLoader.load(null, Map.of(), Map.of(IngestConfig.TELEMETRY_SHARDS, "0")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(IngestConfig.TELEMETRY_SHARDS);
    }

    @Test
    void should_single_out_misspelt_settings_but_not_pass_through_ones_or_the_log_variables() {
        IngestConfig config = ConfigLoader.load(
                null,
                Map.of("APIARY_LOG_LEVEL", "DEBUG", "APIARY_LOG_FORMAT", "json", "APIARY_DEVSTACK_DIR", "/x"),
                Map.of(
                        "telemtry.shards",
                        "5",
                        "kafka.linger.ms",
                        "5",
                        "streams.num.stream.threads",
                        "2",
                        "sink.consumer.fetch.min.bytes",
                        "1"));

        assertThat(config.unknownSettings()).containsExactly("telemtry.shards");
    }

    @Test
    void should_name_the_file_when_it_cannot_be_read() {
        assertThatThrownBy(() -> ConfigLoader.load(dir.resolve("missing.properties"), Map.of(), Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("missing.properties");
    }

    @Test
    void environment_variables_reach_options_whose_names_hold_underscores() {
        IngestConfig config = ConfigLoader.load(
                null,
                Map.of(
                        "APIARY_SINK_TABLE_HIVE_TELEMETRY_V2_TTL_SECONDS", "3600",
                        "APIARY_SINK_TABLE_AGENT_ALERTS_V2_CONSISTENCY", "ONE",
                        "APIARY_KAFKA_SECURITY_PROTOCOL", "SSL"),
                Map.of());
        assertThat(config.getInt(IngestConfig.sinkTableTtl("hive_telemetry_v2")))
                .isEqualTo(3600);
        assertThat(config.getString(IngestConfig.sinkTableConsistency("agent_alerts_v2")))
                .isEqualTo("ONE");
        assertThat(config.kafkaClientSettings()).containsEntry("security.protocol", "SSL");
        assertThat(config.unknownSettings()).isEmpty();
    }

    @Test
    void settings_of_the_tables_whose_key_changed_apply_under_their_new_names() throws Exception {
        Path file = dir.resolve("deployed.properties");
        Files.writeString(
                file,
                "sink.table.hive_telemetry.ttl.seconds=7776000\n" + "sink.table.agent_alerts.consistency=QUORUM\n");
        IngestConfig config =
                ConfigLoader.load(file, Map.of("APIARY_SINK_TABLE_HIVE_TELEMETRY_CONSISTENCY", "ALL"), Map.of());
        assertThat(config.getInt(IngestConfig.sinkTableTtl("hive_telemetry_v2")))
                .isEqualTo(7_776_000);
        assertThat(config.getString(IngestConfig.sinkTableConsistency("hive_telemetry_v2")))
                .isEqualTo("ALL");
        assertThat(config.getString(IngestConfig.sinkTableConsistency("agent_alerts_v2")))
                .isEqualTo("QUORUM");
        assertThat(config.unknownSettings()).isEmpty();
    }

    @Test
    void a_new_name_set_too_wins_over_the_old_one() {
        IngestConfig config = ConfigLoader.load(
                null,
                Map.of(),
                Map.of(
                        "sink.table.hive_telemetry.ttl.seconds",
                        "60",
                        "sink.table.hive_telemetry_v2.ttl.seconds",
                        "120"));
        assertThat(config.getInt(IngestConfig.sinkTableTtl("hive_telemetry_v2")))
                .isEqualTo(120);
        assertThat(config.unknownSettings()).isEmpty();
    }

    @Test
    void sink_write_options_refuse_what_cassandra_would_refuse_for_every_row() {
        assertThatThrownBy(() -> ConfigLoader.load(null, Map.of(), Map.of(IngestConfig.SINK_CONSISTENCY, "SERIAL")))
                .hasMessageContaining(IngestConfig.SINK_CONSISTENCY)
                .hasMessageContaining("LOCAL_QUORUM");
        assertThatThrownBy(() -> ConfigLoader.load(
                        null, Map.of(), Map.of(IngestConfig.sinkTableConsistency("hive_telemetry_v2"), "LOCAL_SERIAL")))
                .hasMessageContaining("must be one of");
        assertThatThrownBy(() -> ConfigLoader.load(
                        null, Map.of(), Map.of(IngestConfig.sinkTableTtl("hive_telemetry_v2"), "630720001")))
                .hasMessageContaining("630720000");
        assertThat(ConfigLoader.load(
                                null, Map.of(), Map.of(IngestConfig.sinkTableTtl("hive_telemetry_v2"), "630720000"))
                        .getInt(IngestConfig.sinkTableTtl("hive_telemetry_v2")))
                .isEqualTo(630_720_000);
    }
}
