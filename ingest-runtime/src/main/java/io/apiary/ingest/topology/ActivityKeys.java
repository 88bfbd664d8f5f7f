package io.apiary.ingest.topology;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.utils.Bytes;

/**
 * Keys of the hourly stores, hive first so that one hive's hours are one contiguous range:
 * <ul>
 *   <li>hour key: hive id length (4 bytes), hive id (UTF-8), hour start (8 bytes, ms since the epoch);</li>
 *   <li>sample key: the hour key, then gateway id length (4 bytes), gateway id (UTF-8), event time (8 bytes).</li>
 * </ul>
 * Numbers are big-endian; the stores order keys as unsigned bytes, so one hive's hours sort by hour
 * start for every time from 1970 on (validation refuses earlier ones). Thread-safe (stateless).
 */
final class ActivityKeys {

    private ActivityKeys() {}

    /**
     * @param hive      the hive id, not null
     * @param hourStart start of the hour, ms since the epoch, not negative
     * @return the hour key
     */
    static Bytes hour(String hive, long hourStart) {
        byte[] id = hive.getBytes(StandardCharsets.UTF_8);
        return Bytes.wrap(ByteBuffer.allocate(4 + id.length + 8)
                .putInt(id.length)
                .put(id)
                .putLong(hourStart)
                .array());
    }

    /**
     * @param hive      the hive id, not null
     * @param hourStart start of the sample's hour, ms since the epoch
     * @param gateway   the gateway id; null is taken as empty
     * @param eventTime the sample's event time, ms since the epoch
     * @return the sample key
     */
    static Bytes sample(String hive, long hourStart, String gateway, long eventTime) {
        byte[] hiveId = hive.getBytes(StandardCharsets.UTF_8);
        byte[] gatewayId = (gateway == null ? "" : gateway).getBytes(StandardCharsets.UTF_8);
        return Bytes.wrap(ByteBuffer.allocate(4 + hiveId.length + 8 + 4 + gatewayId.length + 8)
                .putInt(hiveId.length)
                .put(hiveId)
                .putLong(hourStart)
                .putInt(gatewayId.length)
                .put(gatewayId)
                .putLong(eventTime)
                .array());
    }

    /**
     * @param key an hour key or a sample key, not null
     * @return the hive id it holds
     */
    static String hive(Bytes key) {
        ByteBuffer buffer = ByteBuffer.wrap(key.get());
        int length = buffer.getInt();
        return new String(key.get(), 4, length, StandardCharsets.UTF_8);
    }

    /**
     * @param key an hour key or a sample key, not null
     * @return the hour start it holds, ms since the epoch
     */
    static long hourStart(Bytes key) {
        ByteBuffer buffer = ByteBuffer.wrap(key.get());
        int length = buffer.getInt();
        return buffer.getLong(4 + length);
    }
}
