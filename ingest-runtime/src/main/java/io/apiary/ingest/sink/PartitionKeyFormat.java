package io.apiary.ingest.sink;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.metadata.schema.ColumnMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import com.datastax.oss.driver.api.core.type.codec.TypeCodec;
import com.datastax.oss.driver.api.core.type.codec.registry.CodecRegistry;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * Decodes a Cassandra partition key from its routing key (the bytes the driver hashes into the
 * token) and prints it for operators, e.g. {@code (hive_id='hive-0042', day=2026-11-30, shard=37)}.
 *
 * <p>The routing key of a single-column partition key is that column's serialized value; that of a
 * composite key is, per column, a 2-byte unsigned length, the value's bytes and a 0 byte (Cassandra's
 * {@code CompositeType}, as the driver's {@code RoutingKey.compose} builds it). Text values are
 * printed as CQL literals (quoted), others with {@link String#valueOf}.
 *
 * <p>Immutable and thread-safe (codecs are).
 */
final class PartitionKeyFormat {

    private final List<String> columns;
    private final List<TypeCodec<Object>> codecs;

    /**
     * @param columns names of the partition-key columns, in order, not empty
     * @param codecs  their codecs, same size and order
     * @throws IllegalArgumentException if the sizes differ or no column is named
     */
    PartitionKeyFormat(List<String> columns, List<TypeCodec<Object>> codecs) {
        if (columns.isEmpty() || columns.size() != codecs.size()) {
            throw new IllegalArgumentException("one codec per partition-key column: " + columns + ", " + codecs);
        }
        this.columns = List.copyOf(columns);
        this.codecs = List.copyOf(codecs);
    }

    /**
     * The format of a table's partition key, from the driver's schema metadata.
     *
     * @param session  an open session, not null
     * @param keyspace keyspace of the table
     * @param table    table name
     * @return the format, or empty when the driver has no metadata of the table (schema metadata off)
     */
    static Optional<PartitionKeyFormat> of(CqlSession session, String keyspace, String table) {
        CodecRegistry registry = session.getContext().getCodecRegistry();
        return session.getMetadata()
                .getKeyspace(keyspace)
                .flatMap(k -> k.getTable(table))
                .map((TableMetadata metadata) -> {
                    List<String> names = new ArrayList<>();
                    List<TypeCodec<Object>> codecs = new ArrayList<>();
                    for (ColumnMetadata column : metadata.getPartitionKey()) {
                        names.add(column.getName().asInternal());
                        codecs.add(registry.codecFor(column.getType()));
                    }
                    return new PartitionKeyFormat(names, codecs);
                });
    }

    /** @return the partition-key column names, in order */
    List<String> columns() {
        return columns;
    }

    /**
     * @param routingKey a routing key of this table; read without moving its position; not null
     * @return the partition-key values in column order (Java types of the codecs: String,
     *         LocalDate, Integer, ...)
     * @throws IllegalArgumentException if the bytes are not a routing key of this table
     */
    List<Object> decode(ByteBuffer routingKey) {
        ByteBuffer bytes = routingKey.duplicate();
        if (codecs.size() == 1) {
            return java.util.Collections.singletonList(codecs.get(0).decode(bytes, ProtocolVersion.DEFAULT));
        }
        List<Object> values = new ArrayList<>(codecs.size());
        try {
            for (TypeCodec<Object> codec : codecs) {
                int length = bytes.getShort() & 0xFFFF;
                ByteBuffer value = bytes.slice();
                value.limit(length);
                bytes.position(bytes.position() + length + 1); // the value, then its 0 end-of-component byte
                values.add(codec.decode(value, ProtocolVersion.DEFAULT));
            }
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "not a routing key of " + columns + ": " + HexFormat.of().formatHex(bytesOf(routingKey)), e);
        }
        if (bytes.hasRemaining()) {
            throw new IllegalArgumentException("routing key longer than " + columns);
        }
        return values;
    }

    /**
     * @param values partition-key values as {@link #decode} returns them
     * @return {@code (column=value, ...)}, text quoted as a CQL literal; control and bidirectional
     *         formatting characters escaped as {@code \\uXXXX}, so a key cannot forge log lines
     */
    String format(List<Object> values) {
        StringBuilder out = new StringBuilder("(");
        for (int i = 0; i < values.size(); i++) {
            Object value = values.get(i);
            out.append(i == 0 ? "" : ", ")
                    .append(columns.get(i))
                    .append('=')
                    .append(value instanceof String ? codecs.get(i).format(value) : String.valueOf(value));
        }
        return escapeControls(out.append(')').toString());
    }

    /** @return the text with ISO control characters and Unicode format characters (e.g. U+202E) as {@code \\uXXXX} */
    static String escapeControls(String text) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean escape = Character.isISOControl(c) || Character.getType(c) == Character.FORMAT;
            if (escape && out == null) {
                out = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            if (out != null) {
                if (escape) {
                    out.append(String.format("\\u%04X", (int) c));
                } else {
                    out.append(c);
                }
            }
        }
        return out == null ? text : out.toString();
    }

    /**
     * A routing key printed without knowing its table's columns.
     *
     * @param routingKey a routing key, not null; its position is not moved
     * @return {@code 0x} and its bytes in hex
     */
    static String hex(ByteBuffer routingKey) {
        return "0x" + HexFormat.of().formatHex(bytesOf(routingKey));
    }

    private static byte[] bytesOf(ByteBuffer buffer) {
        ByteBuffer copy = buffer.duplicate();
        byte[] bytes = new byte[copy.remaining()];
        copy.get(bytes);
        return bytes;
    }
}
