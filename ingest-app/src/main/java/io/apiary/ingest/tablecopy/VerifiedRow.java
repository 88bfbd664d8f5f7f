package io.apiary.ingest.tablecopy;

import com.datastax.oss.driver.api.core.cql.BoundStatement;
import io.apiary.ingest.sink.SinkTable;
import io.apiary.ingest.tables.TableDescriptor;
import java.nio.ByteBuffer;
import java.time.Instant;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.specific.SpecificRecord;

/**
 * One row as a verification compares it, on either side: its target primary key (serialized
 * partition key and clustering values, as the target's {@link SinkTable} binds them), a 64-bit
 * hash of that key, of its regular values ({@link SinkTable.Write#fingerprint}) and of its write
 * time (the greatest of its cells'; the TTL is not compared, it ticks), the same hash without the
 * write time (to tell a row written again with equal values from a changed one), the target token of its
 * partition, and the row itself for naming it. A source row is first mapped as the copy maps it,
 * so both sides go through the same binding and equal rows have equal bytes. Immutable.
 *
 * @param key             the target primary key's bytes
 * @param hash            the hash of key, values and write time
 * @param valuesHash      the hash of key and values alone ({@link #valuesHash})
 * @param targetToken     the Murmur3 token of its target partition
 * @param sourceToken     the token it was read at
 * @param writeTimeMicros its write time, or {@link ScannedRow#NO_CELLS}
 * @param row             the row, in the target's record type
 * @param nullColumns     columns null in the stored row that its record requires (read as
 *                        stand-ins, {@link CopyMapping#readStored}); empty for a whole row. A row
 *                        with such columns never equals a source row (the copy refuses a source
 *                        row with a required column null), so its hashes are salted apart.
 */
record VerifiedRow(
        ByteBuffer key,
        long hash,
        long valuesHash,
        long targetToken,
        long sourceToken,
        long writeTimeMicros,
        SpecificRecord row,
        java.util.List<String> nullColumns) {

    /** Salt of the hashes of a row with null required columns (FNV-1a's 64-bit offset basis, any odd constant does). */
    private static final long NULLS_SALT = 0xcbf29ce484222325L;

    /**
     * A target row as stored, also with required columns null ({@link CopyMapping#readStored}).
     *
     * @param table  the target's binding
     * @param stored the row as read
     * @param writeTimeMicros its write time, or {@link ScannedRow#NO_CELLS}
     * @param token  the token it was read at (its target token)
     * @param <T>    the target's record type
     * @return the row as compared
     */
    static <T extends SpecificRecord> VerifiedRow stored(
            SinkTable<T> table, CopyMapping.Stored<T> stored, long writeTimeMicros, long token) {
        VerifiedRow row = of(table, stored.row(), writeTimeMicros, token, key -> token);
        if (stored.nullColumns().isEmpty()) {
            return row;
        }
        long valuesHash =
                mix(row.valuesHash() ^ NULLS_SALT ^ stored.nullColumns().hashCode());
        return new VerifiedRow(
                row.key(),
                mix(valuesHash ^ writeTimeMicros),
                valuesHash,
                token,
                token,
                writeTimeMicros,
                row.row(),
                stored.nullColumns());
    }

    /**
     * @param table the target's binding
     * @param row   the row in the target's layout
     * @param writeTimeMicros the row's write time, or {@link ScannedRow#NO_CELLS}
     * @param sourceToken the token it was read at
     * @param tokenOf the token of a serialized partition key
     * @param <T> the target's record type
     * @return the row as compared
     */
    static <T extends SpecificRecord> VerifiedRow of(
            SinkTable<T> table,
            T row,
            long writeTimeMicros,
            long sourceToken,
            java.util.function.ToLongFunction<ByteBuffer> tokenOf) {
        SinkTable.Write write = table.bind(row, Math.max(0, writeTimeMicros), 0);
        ByteBuffer partition = write.routingKey();
        ByteBuffer clustering = clusteringKey(table.descriptor(), write.insert());
        ByteBuffer key = ByteBuffer.allocate(4 + partition.remaining() + clustering.remaining());
        key.putInt(partition.remaining())
                .put(partition.duplicate())
                .put(clustering.duplicate())
                .flip();
        return new VerifiedRow(
                key,
                hash(key, write.fingerprint(), writeTimeMicros),
                valuesHash(key, write.fingerprint()),
                tokenOf.applyAsLong(partition),
                sourceToken,
                writeTimeMicros,
                row,
                java.util.List.of());
    }

    /**
     * The serialized clustering values of a bound INSERT.
     *
     * @param table  the table the INSERT was bound from, not null
     * @param insert an INSERT bound from it (every column a bind marker, in {@code table.columns()} order)
     * @return the clustering columns' values, each preceded by its length as a 4-byte int (-1 for
     *         null), as one buffer ready to read
     */
    static ByteBuffer clusteringKey(TableDescriptor table, BoundStatement insert) {
        int from = table.partitionKey().size();
        int to = table.primaryKeySize();
        int size = 0;
        for (int i = from; i < to; i++) {
            ByteBuffer value = insert.getBytesUnsafe(i);
            size += 4 + (value == null ? 0 : value.remaining());
        }
        ByteBuffer key = ByteBuffer.allocate(size);
        for (int i = from; i < to; i++) {
            ByteBuffer value = insert.getBytesUnsafe(i);
            key.putInt(value == null ? -1 : value.remaining());
            if (value != null) {
                key.put(value.duplicate());
            }
        }
        return key.flip();
    }

    /**
     * @param key               a row's primary key bytes
     * @param valuesFingerprint the fingerprint of its regular values
     * @param writeTimeMicros   its write time
     * @return a 64-bit hash of the three, every bit depending on all of them
     */
    static long hash(ByteBuffer key, long valuesFingerprint, long writeTimeMicros) {
        return mix(valuesHash(key, valuesFingerprint) ^ writeTimeMicros);
    }

    /**
     * @param key               a row's primary key bytes
     * @param valuesFingerprint the fingerprint of its regular values
     * @return a 64-bit hash of the two: equal for two rows of one key and equal values, whatever
     *         their write times
     */
    static long valuesHash(ByteBuffer key, long valuesFingerprint) {
        byte[] bytes = new byte[key.remaining()];
        key.duplicate().get(bytes);
        return mix(mix(SchemaNormalization.fingerprint64(bytes)) ^ valuesFingerprint);
    }

    /**
     * @param row    a row
     * @param column its event-time column
     * @return the event time
     */
    static Instant eventTime(SpecificRecord row, String column) {
        return (Instant) row.get(row.getSchema().getField(column).pos());
    }

    /** MurmurHash3's 64-bit finalizer: every input bit affects every output bit (avalanche). */
    static long mix(long value) {
        long k = value;
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
