package io.apiary.ingest.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiary.schema.HourlyActivity;
import io.apiary.schema.TelemetryReading;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

/**
 * How {@link KafkaAvroSerializer} and {@link KafkaAvroDeserializer} read their settings, with no
 * registry (nothing is contacted while configuring). The real registry is {@code JavaRegistryClientIT}'s.
 */
class KafkaAvroSerdeConfigTest {

    private static final Path JDK_TRUST_STORE = Path.of(System.getProperty("java.home"), "lib", "security", "cacerts");

    private static Map<String, Object> settings(Object... pairs) {
        Map<String, Object> map = new HashMap<>();
        map.put("bootstrap.servers", "127.0.0.1:9092"); // the client's own settings are ignored
        map.put("acks", "all");
        map.put("schema.registry.url", "http://127.0.0.1:1/apis/ccompat/v6");
        for (int i = 0; i < pairs.length; i += 2) {
            map.put((String) pairs[i], pairs[i + 1]);
        }
        return map;
    }

    private static RegistrySettings registry(Object... pairs) {
        return KafkaAvroSerdeConfig.of(settings(pairs)).registrySettings();
    }

    private static void refused(Map<String, Object> settings, String setting) {
        assertThatThrownBy(() -> KafkaAvroSerdeConfig.of(settings).registrySettings())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(setting);
    }

    @Test
    void should_read_comma_separated_urls_without_authentication_by_default() {
        RegistrySettings registry = registry("schema.registry.url", "http://a:8081/, http://b:8081");

        assertThat(registry.urls()).extracting(Object::toString).containsExactly("http://a:8081", "http://b:8081");
        assertThat(registry.basicUserInfo()).isNull();
        assertThat(registry.bearerToken()).isNull();
        assertThat(registry.sslContext()).isNull();
        assertThat(registry.requestTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(registry.retries()).isEqualTo(3);
    }

    @Test
    void should_require_the_registry_url() {
        Map<String, Object> settings = settings();
        settings.remove("schema.registry.url");

        refused(settings, "schema.registry.url");
    }

    @Test
    void should_refuse_urls_that_are_not_http_or_hold_credentials() {
        refused(settings("schema.registry.url", "ftp://a:21"), "schema.registry.url");
        refused(settings("schema.registry.url", "http://user:secret@a:8081"), "schema.registry.url");
        assertThatThrownBy(() -> registry("schema.registry.url", "http://user:secret@a:8081"))
                .hasMessageNotContaining("secret");
    }

    @Test
    void should_take_basic_auth_user_info_under_either_name() {
        assertThat(registry("basic.auth.credentials.source", "USER_INFO", "basic.auth.user.info", "u:p")
                        .basicUserInfo())
                .isEqualTo("u:p");
        assertThat(registry("schema.registry.basic.auth.user.info", "u:q").basicUserInfo())
                .isEqualTo("u:q");
    }

    @Test
    void should_refuse_two_different_user_infos_a_user_info_without_colon_and_other_sources() {
        refused(
                settings("basic.auth.user.info", "u:p", "schema.registry.basic.auth.user.info", "u:q"),
                "schema.registry.basic.auth.user.info");
        refused(settings("basic.auth.user.info", "nocolon"), "basic.auth.user.info");
        refused(settings("basic.auth.credentials.source", "URL"), "basic.auth.credentials.source");
        refused(settings("basic.auth.credentials.source", "SASL_INHERIT"), "basic.auth.credentials.source");
    }

    @Test
    void should_take_a_bearer_token_but_not_with_basic_auth() {
        assertThat(registry("bearer.auth.credentials.source", "STATIC_TOKEN", "bearer.auth.token", "t0k")
                        .bearerToken())
                .isEqualTo("t0k");
        refused(settings("bearer.auth.token", "t0k", "basic.auth.user.info", "u:p"), "bearer.auth.token");
        refused(settings("bearer.auth.credentials.source", "OAUTHBEARER"), "bearer.auth.credentials.source");
    }

    @Test
    void should_take_the_request_timeout_and_retries_within_bounds() {
        RegistrySettings registry =
                registry("schema.registry.request.timeout.ms", "2500", "schema.registry.retries", 0);

        assertThat(registry.requestTimeout()).isEqualTo(Duration.ofMillis(2500));
        assertThat(registry.retries()).isZero();
        refused(settings("schema.registry.retries", RegistrySettings.MAX_RETRIES + 1), "schema.registry.retries");
    }

    @Test
    void should_load_a_trust_store_of_a_given_type_for_https_urls() {
        RegistrySettings registry = registry(
                "schema.registry.url", "https://a:8081",
                "schema.registry.ssl.truststore.location", JDK_TRUST_STORE.toString(),
                "schema.registry.ssl.truststore.password", "changeit",
                "schema.registry.ssl.truststore.type", "PKCS12");

        assertThat(registry.sslContext()).isNotNull();
    }

    @Test
    void should_name_the_trust_store_it_cannot_read() {
        refused(
                settings(
                        "schema.registry.url", "https://a:8081",
                        "schema.registry.ssl.truststore.location", "/no/such/truststore.p12",
                        "schema.registry.ssl.truststore.password", "changeit"),
                "schema.registry.ssl.truststore.location");
    }

    @Test
    void should_name_a_setting_given_a_null_value() {
        refused(settings("auto.register.schemas", null), "auto.register.schemas");
        refused(settings("schema.registry.url", null), "schema.registry.url");
    }

    @Test
    void should_name_the_key_store_it_cannot_read() throws Exception {
        Path notAStore = Files.createTempFile("not-a-keystore", ".p12");
        Files.writeString(notAStore, "not a key store");
        try {
            refused(
                    settings(
                            "schema.registry.url", "https://a:8081",
                            "schema.registry.ssl.keystore.location", notAStore.toString(),
                            "schema.registry.ssl.keystore.password", "pw",
                            "schema.registry.ssl.keystore.type", "PKCS12"),
                    "schema.registry.ssl.keystore.location");
        } finally {
            Files.delete(notAStore);
        }
    }

    @Test
    void should_refuse_an_unknown_setting_of_its_name_space_by_name() {
        assertThatThrownBy(() -> KafkaAvroSerdeConfig.of(
                        settings("schema.registry.ssl.trustore.location", JDK_TRUST_STORE.toString())))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("schema.registry.ssl.trustore.location");
        assertThatThrownBy(() -> KafkaAvroSerdeConfig.of(settings("basic.auth.userinfo", "u:p")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("basic.auth.userinfo")
                .hasMessageNotContaining("u:p");
    }

    @Test
    void should_refuse_subject_name_strategies_other_than_the_topic_naming() {
        assertThatThrownBy(() -> KafkaAvroSerdeConfig.of(settings(
                        "value.subject.name.strategy", "io.confluent.kafka.serializers.subject.RecordNameStrategy")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("value.subject.name.strategy");
        KafkaAvroSerdeConfig.of(
                settings("value.subject.name.strategy", "io.confluent.kafka.serializers.subject.TopicNameStrategy"));
    }

    @Test
    void should_auto_register_by_default_as_confluent_and_look_up_when_told_not_to() {
        KafkaAvroSerializer<TelemetryReading> byDefault = new KafkaAvroSerializer<>();
        byDefault.configure(settings(), false);
        KafkaAvroSerializer<TelemetryReading> gateway = new KafkaAvroSerializer<>();
        gateway.configure(settings("auto.register.schemas", "false"), false);

        assertThat(byDefault.format().autoRegister()).isTrue();
        assertThat(gateway.format().autoRegister()).isFalse();
        assertThat(gateway.format().write()).isEqualTo(WireFormat.Framing.REGISTRY);
    }

    @Test
    void should_refuse_use_latest_version_with_auto_registration() {
        KafkaAvroSerializer<TelemetryReading> serializer = new KafkaAvroSerializer<>();
        assertThatThrownBy(() -> serializer.configure(settings("use.latest.version", "true"), false))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("use.latest.version");
        serializer.configure(settings("use.latest.version", "true", "auto.register.schemas", "false"), false);
    }

    @Test
    void should_refuse_to_serialize_before_configure_or_a_value_that_is_not_avro() {
        KafkaAvroSerializer<TelemetryReading> serializer = new KafkaAvroSerializer<>();
        assertThatThrownBy(() -> serializer.serialize("t", new TelemetryReading()))
                .isInstanceOf(IllegalStateException.class);

        KafkaAvroSerializer<Object> any = new KafkaAvroSerializer<>();
        any.configure(settings(), false);
        assertThatThrownBy(() -> any.serialize("t", "not a record"))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("java.lang.String");
    }

    @Test
    void should_read_into_the_generated_class_named_for_values_or_keys() {
        KafkaAvroDeserializer<HourlyActivity> values = new KafkaAvroDeserializer<>();
        values.configure(
                settings("specific.avro.reader", "true", "specific.avro.value.type", HourlyActivity.class.getName()),
                false);
        KafkaAvroDeserializer<TelemetryReading> keys = new KafkaAvroDeserializer<>();
        keys.configure(settings("specific.avro.key.type", TelemetryReading.class.getName()), true);

        assertThat(values.readerSchema()).isEqualTo(HourlyActivity.getClassSchema());
        assertThat(keys.readerSchema()).isEqualTo(TelemetryReading.getClassSchema());
    }

    @Test
    void should_read_generic_records_of_a_schema_from_the_class_path_or_json() {
        KafkaAvroDeserializer<GenericRecord> resource = new KafkaAvroDeserializer<>();
        resource.configure(settings("avro.reader.value.schema", "schemas/HourlyActivity.avsc"), false);
        KafkaAvroDeserializer<GenericRecord> json = new KafkaAvroDeserializer<>();
        json.configure(
                settings("avro.reader.value.schema", "{\"type\":\"record\",\"name\":\"R\",\"fields\":[]}"), false);

        assertThat(resource.readerSchema().getFullName())
                .isEqualTo(HourlyActivity.getClassSchema().getFullName());
        assertThat(json.readerSchema().getName()).isEqualTo("R");
    }

    private static void deserializerRefuses(Map<String, Object> settings, String setting) {
        assertThatThrownBy(() -> new KafkaAvroDeserializer<>().configure(settings, false))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(setting);
    }

    @Test
    void should_refuse_a_deserializer_that_is_not_told_what_to_read_into() {
        deserializerRefuses(settings(), "specific.avro.value.type");
        deserializerRefuses(
                settings(
                        "specific.avro.value.type",
                        HourlyActivity.class.getName(),
                        "avro.reader.value.schema",
                        "schemas/HourlyActivity.avsc"),
                "avro.reader.value.schema");
        deserializerRefuses(
                settings("specific.avro.reader", "true", "avro.reader.value.schema", "schemas/HourlyActivity.avsc"),
                "specific.avro.reader");
    }

    @Test
    void should_refuse_a_reader_type_that_is_not_a_generated_class_or_unknown() {
        deserializerRefuses(settings("specific.avro.value.type", "java.lang.String"), "specific.avro.value.type");
        deserializerRefuses(
                settings("specific.avro.value.type", "io.apiary.schema.NoSuch"), "specific.avro.value.type");
    }

    @Test
    void should_refuse_a_reader_schema_that_is_neither_json_nor_a_resource() {
        deserializerRefuses(settings("avro.reader.value.schema", "schemas/NoSuch.avsc"), "avro.reader.value.schema");
        deserializerRefuses(settings("avro.reader.value.schema", "{\"type\":\"record\"}"), "avro.reader.value.schema");
        deserializerRefuses(settings("avro.reader.value.schema", "\"string\""), "avro.reader.value.schema");
    }
}
