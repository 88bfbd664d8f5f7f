package io.apiary.ingest.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class StrictUtf8DeserializerTest {

    private final StrictUtf8Deserializer deserializer = new StrictUtf8Deserializer();

    @Test
    void readsAnAsciiKey() {
        assertThat(deserializer.deserialize("t", "hive-0042".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo("hive-0042");
    }

    @Test
    void readsAKeyWithMultiByteCharacters() {
        String key = "ruche-\u00e9t\u00e9-\ud83d\udc1d";
        assertThat(deserializer.deserialize("t", key.getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(key);
    }

    @Test
    void readsNullAsNullAndNoBytesAsEmpty() {
        assertThat(deserializer.deserialize("t", null)).isNull();
        assertThat(deserializer.deserialize("t", new byte[0])).isEmpty();
    }

    @Test
    void refusesBytesThatAreNotUtf8() {
        assertThatThrownBy(() -> deserializer.deserialize("t", new byte[] {'h', (byte) 0xFF}))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("not valid UTF-8");
    }

    @Test
    void refusesATruncatedSequenceAndAnOverlongEncoding() {
        assertThatThrownBy(() -> deserializer.deserialize("t", new byte[] {'h', (byte) 0xC3}))
                .isInstanceOf(SerializationException.class);
        assertThatThrownBy(() -> deserializer.deserialize("t", new byte[] {(byte) 0xC0, (byte) 0x80}))
                .isInstanceOf(SerializationException.class);
    }
}
