package io.apiary.ingest.serde;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads record keys (hive, station and agent ids) as UTF-8 and refuses bytes that are not valid
 * UTF-8, where Kafka's {@code StringDeserializer} would replace them with U+FFFD: two different
 * invalid keys would then read as the same id while Kafka partitions them apart, splitting one
 * id's records over partitions. A key of ASCII bytes only (each below 0x80, which UTF-8 encodes as
 * itself: RFC 3629, section 3) is read without a decoder. Stateless and thread-safe (a decoder is
 * made per call that needs one).
 */
public final class StrictUtf8Deserializer implements Deserializer<String> {

    /**
     * @param topic the topic, for the message
     * @param data  the key bytes, may be null
     * @return the text, or null for null data
     * @throws SerializationException if the bytes are not valid UTF-8
     */
    @Override
    public String deserialize(String topic, byte[] data) {
        if (data == null) {
            return null;
        }
        if (ascii(data)) {
            return new String(data, StandardCharsets.US_ASCII);
        }
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(data))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new SerializationException("Record key of " + data.length + " bytes on " + topic
                    + " is not valid UTF-8 (" + e.getMessage() + "); keys are ids in UTF-8 text");
        }
    }

    private static boolean ascii(byte[] data) {
        for (byte b : data) {
            if (b < 0) {
                return false;
            }
        }
        return true;
    }
}
