package io.apiary.ingest.cassandra;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import java.util.Map;

/**
 * The driver's {@link DataType} of a CQL type name as {@code cql/} writes it (lower-case
 * built-in types, {@link io.apiary.ingest.tables.TableDescriptor#cqlType}). Only the types the
 * application reads and writes are known. Thread-safe (constants only).
 */
public final class CqlTypes {

    private static final Map<String, DataType> TYPES = Map.of(
            "text", DataTypes.TEXT,
            "varchar", DataTypes.TEXT,
            "ascii", DataTypes.ASCII,
            "int", DataTypes.INT,
            "bigint", DataTypes.BIGINT,
            "double", DataTypes.DOUBLE,
            "float", DataTypes.FLOAT,
            "boolean", DataTypes.BOOLEAN,
            "date", DataTypes.DATE,
            "timestamp", DataTypes.TIMESTAMP);

    private CqlTypes() {}

    /**
     * @param name a keyspace, table or column name as Cassandra stores it (a quoted name's case kept,
     *             e.g. {@code hive_weight} or {@code WeightKg}), not null
     * @return the name as CQL text: in double quotes if it needs them (upper case, a reserved word,
     *         other characters), as is otherwise; the driver's {@link CqlIdentifier#asCql} rule
     */
    public static String name(String name) {
        return CqlIdentifier.fromInternal(name).asCql(true);
    }

    /**
     * @param cqlType a CQL type name, e.g. {@code timestamp}, not null
     * @return the driver's type
     * @throws IllegalArgumentException for a type the application does not read or write (collections,
     *                                  user types, blobs ...), naming the ones it does
     */
    public static DataType of(String cqlType) {
        DataType type = TYPES.get(cqlType);
        if (type == null) {
            throw new IllegalArgumentException("CQL type " + cqlType + " is not supported here (supported: "
                    + String.join(", ", new java.util.TreeSet<>(TYPES.keySet())) + ")");
        }
        return type;
    }
}
