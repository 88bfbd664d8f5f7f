package io.apiary.ingest.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiary.ingest.serde.RegistrySettings;
import io.apiary.ingest.serde.WireFormat;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/** The wire format and registry settings: what they build and what they refuse. */
class RegistrySettingsTest {

    @Test
    void registry_framing_is_the_default_and_needs_a_url_naming_the_way_out() {
        IngestConfig config = new IngestConfig(Map.of());
        assertThatThrownBy(config::wireFormat)
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(RegistrySettings.REGISTRY_URL)
                .hasMessageContaining("wire.format.write=single-object");
        // Names alone need no registry settings.
        assertThat(config.topics().telemetry()).isEqualTo("hive.telemetry.v1");
    }

    @Test
    void builds_the_format_asked_for_once_per_configuration() {
        IngestConfig config = new IngestConfig(Map.of(
                RegistrySettings.REGISTRY_URL,
                "http://127.0.0.1:8081/, http://b:1",
                RegistrySettings.WIRE_FORMAT_READ_SINGLE_OBJECT,
                "false"));
        WireFormat format = config.wireFormat();
        assertThat(format.write()).isEqualTo(WireFormat.Framing.REGISTRY);
        assertThat(format.acceptSingleObject()).isFalse();
        assertThat(format.autoRegister()).isTrue();
        assertThat(format.registry().settings().urls()).hasSize(2);
        assertThat(config.wireFormat()).isSameAs(format);
        assertThat(config.topics().wireFormat()).isSameAs(format);

        WireFormat old = new IngestConfig(Map.of(RegistrySettings.WIRE_FORMAT_WRITE, "single-object")).wireFormat();
        assertThat(old.write()).isEqualTo(WireFormat.Framing.SINGLE_OBJECT);
        assertThat(old.registryClient()).isEmpty();
    }

    @Test
    void refuses_credentials_in_the_url_without_repeating_them() {
        assertThatThrownBy(() ->
                        new IngestConfig(Map.of(RegistrySettings.REGISTRY_URL, "http://u:urlSECRET@127.0.0.1:1/x")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("must not hold credentials")
                .hasMessageNotContaining("urlSECRET");
        assertThat(new IngestConfig(Map.of(RegistrySettings.REGISTRY_URL, "http://127.0.0.1:1/a@b")).wireFormat())
                .isNotNull(); // an @ in the path is no credential
    }

    @Test
    void refuses_bad_urls_and_authentication_without_printing_secrets() {
        assertThatThrownBy(() -> new IngestConfig(Map.of(RegistrySettings.REGISTRY_URL, "ftp://x")).wireFormat())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("http or https");
        assertThatThrownBy(() -> new IngestConfig(Map.of(RegistrySettings.REGISTRY_URL, "127.0.0.1:8081")).wireFormat())
                .isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> new IngestConfig(Map.of(
                                RegistrySettings.REGISTRY_URL,
                                "http://a:1",
                                RegistrySettings.REGISTRY_BASIC_AUTH_USER_INFO,
                                "nocolonSECRET"))
                        .wireFormat())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("user:password")
                .hasMessageNotContaining("nocolonSECRET");
        assertThatThrownBy(() -> new IngestConfig(Map.of(
                                RegistrySettings.REGISTRY_URL,
                                "http://a:1",
                                RegistrySettings.REGISTRY_BASIC_AUTH_USER_INFO,
                                "u:p",
                                RegistrySettings.REGISTRY_BEARER_AUTH_TOKEN,
                                "t"))
                        .wireFormat())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("not both");
        assertThatThrownBy(() -> new IngestConfig(Map.of(
                                RegistrySettings.REGISTRY_URL,
                                "https://a:1",
                                RegistrySettings.REGISTRY_SSL_TRUSTSTORE_PATH,
                                "/no/such/store.p12"))
                        .wireFormat())
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining(RegistrySettings.REGISTRY_SSL_TRUSTSTORE_PATH);
        assertThatThrownBy(() -> new IngestConfig(Map.of(RegistrySettings.WIRE_FORMAT_WRITE, "json")))
                .isInstanceOf(ConfigException.class);
    }
}
