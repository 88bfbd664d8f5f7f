package io.apiary.ingest.partitionsize;

import io.apiary.ingest.tables.CqlTableDefinition;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Bytes of one value of a CQL type as Cassandra serializes it: exact for the fixed-size types,
 * unknown (to be estimated) for variable-size ones. Source: the CQL binary protocol
 * specification (native_protocol_v5.spec, section 6, "Data type serialization formats");
 * {@code inet} is counted as an IPv6 address (16 bytes, IPv4 takes 4), {@code decimal} as a
 * 4-byte scale and an 8-byte unscaled value. Thread-safe (stateless).
 */
public final class ColumnSizes {

    private static final Map<String, Long> FIXED = Map.ofEntries(
            Map.entry("boolean", 1L),
            Map.entry("tinyint", 1L),
            Map.entry("smallint", 2L),
            Map.entry("int", 4L),
            Map.entry("float", 4L),
            Map.entry("date", 4L),
            Map.entry("bigint", 8L),
            Map.entry("counter", 8L),
            Map.entry("double", 8L),
            Map.entry("timestamp", 8L),
            Map.entry("time", 8L),
            Map.entry("uuid", 16L),
            Map.entry("timeuuid", 16L),
            Map.entry("inet", 16L),
            Map.entry("decimal", 12L));

    /** {@code vector<type,n>} of a fixed-size element type: n values without length prefixes. */
    private static final java.util.regex.Pattern VECTOR =
            java.util.regex.Pattern.compile("vector<([a-z]+),([0-9]{1,9})>");

    private ColumnSizes() {}

    /**
     * @param cqlType a CQL type as {@link CqlTableDefinition} keeps it (lower case, no spaces)
     * @return its bytes per value if the type has a fixed size (also a {@code vector} of a fixed-size
     *         type); empty for text, blob, varint, duration, collections, tuples and user-defined types
     */
    public static OptionalLong fixed(String cqlType) {
        Long bytes = FIXED.get(cqlType);
        if (bytes != null) {
            return OptionalLong.of(bytes);
        }
        java.util.regex.Matcher vector = VECTOR.matcher(cqlType);
        if (vector.matches()) {
            OptionalLong element = fixed(vector.group(1));
            long dimensions = Long.parseLong(vector.group(2));
            if (element.isPresent() && dimensions <= Integer.MAX_VALUE) {
                return OptionalLong.of(element.getAsLong() * dimensions);
            }
        }
        return OptionalLong.empty();
    }
}
