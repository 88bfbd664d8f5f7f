package io.apiary.ingest.sink;

import com.datastax.oss.driver.api.core.CqlSession;
import io.apiary.ingest.tables.CqlScript;
import io.apiary.ingest.tables.CqlTableDefinition;
import io.apiary.ingest.tables.TableDescriptor;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaParseException;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Tables the sink writes beside those of {@code cql/}: each described by its own {@code CREATE
 * TABLE} and fed by its own row topic, whose values are Avro records of a row schema, in
 * single-object encoding ({@code C3 01}, the schema's fingerprint, the body; Avro's
 * {@code BinaryMessageEncoder} writes it). No code: a registration file names the parts.
 *
 * <p>A registration is a {@code .properties} file (UTF-8), paths relative to it:
 *
 * <pre>
 * cql=050-hive_weight.cql          # the CQL file with the table's CREATE TABLE (required)
 * table=hive_weight                # which table of the file, if it has several
 * row.topic=rows.hive_weight.v1    # the row topic (required)
 * row.schema=HiveWeightRow.avsc    # the rows' Avro schema (required)
 * column.weight_kg.field=weight    # a column filled from a field of another name (optional)
 * rows.are.updates=false           # whether rows of one key are updates of one thing (default false)
 * </pre>
 *
 * <p>Each column takes the row field of its name (or the one named), of a type that fits it
 * ({@code text} a string, {@code int} an int, {@code bigint} a long, {@code double} a double,
 * {@code date} an int with or without logical type {@code date}, {@code timestamp} a long with or
 * without {@code timestamp-millis}); key columns must not be nullable; a nullable regular field
 * left null writes no cell. The write time follows the table's time column, its first
 * {@code timestamp} clustering column ({@link WriteTimestamps#event}); a table without one cannot be
 * registered. Consistency is {@code sink.consistency}, the TTL the table's own
 * {@code default_time_to_live}.
 *
 * <p>Thread-safe (stateless).
 */
public final class ExtraTables {

    private static final Set<String> KEYS = Set.of("cql", "table", "row.topic", "row.schema", "rows.are.updates");

    /**
     * One registered table.
     *
     * @param file      the registration file
     * @param table     the table's descriptor, from its CQL
     * @param rowTopic  the topic the sink reads its rows from
     * @param rowSchema the schema rows are read with
     * @param fields    the row field of each column named in the file (other columns take their own name)
     * @param updates   whether rows of one key are updates of one thing
     */
    public record Registration(
            Path file,
            TableDescriptor table,
            String rowTopic,
            Schema rowSchema,
            Map<String, String> fields,
            boolean updates) {

        /** @return how the sink binds its rows */
        public SinkTable.Binding<GenericRecord> binding() {
            SinkTable.Binding<GenericRecord> binding = SinkTable.Binding.forTable(table, rowSchema);
            for (Map.Entry<String, String> field : fields.entrySet()) {
                binding = binding.field(field.getKey(), field.getValue());
            }
            return updates ? binding.updates() : binding;
        }
    }

    private ExtraTables() {}

    /**
     * Reads a registration file and the CQL and schema files it names.
     *
     * @param file the registration file, not null
     * @return the registration
     * @throws IllegalArgumentException naming the file and the fault if it, its CQL or its schema
     *                                  cannot be read, a key is unknown or missing, or a column does
     *                                  not fit its field (checked again when bound)
     */
    public static Registration read(Path file) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new IllegalArgumentException("table registration " + file + ": cannot be read: " + e, e);
        }
        Map<String, String> fields = new HashMap<>();
        for (String key : new TreeSet<>(properties.stringPropertyNames())) {
            if (key.startsWith("column.") && key.endsWith(".field") && key.length() > "column..field".length()) {
                fields.put(
                        key.substring("column.".length(), key.length() - ".field".length()),
                        required(properties, key, file));
            } else if (!KEYS.contains(key)) {
                throw new IllegalArgumentException("table registration " + file + ": unknown key " + key + " (known: "
                        + String.join(", ", new TreeSet<>(KEYS)) + ", column.<column>.field)");
            }
        }
        Path folder = file.toAbsolutePath().getParent();
        TableDescriptor table =
                table(folder.resolve(required(properties, "cql", file)), properties.getProperty("table"), file);
        Schema schema = schema(folder.resolve(required(properties, "row.schema", file)), file);
        String updates = properties.getProperty("rows.are.updates", "false").trim();
        if (!updates.equals("true") && !updates.equals("false")) {
            throw new IllegalArgumentException(
                    "table registration " + file + ": rows.are.updates must be true or false, not " + updates);
        }
        Registration registration = new Registration(
                file,
                table,
                required(properties, "row.topic", file),
                schema,
                Map.copyOf(fields),
                updates.equals("true"));
        try {
            new RowBinder<>(registration.binding()); // check the columns against the schema now, not at first row
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("table registration " + file + ": " + e.getMessage(), e);
        }
        if (table.timeColumn().isEmpty()) {
            throw new IllegalArgumentException("table registration " + file + ": table " + table.name()
                    + " has no timestamp clustering column, which the write time is derived from");
        }
        return registration;
    }

    /**
     * @param files registration files, not null
     * @return their registrations, in order
     * @throws IllegalArgumentException as {@link #read}, or if two name one table or one row topic
     */
    public static List<Registration> readAll(List<Path> files) {
        List<Registration> registrations = new ArrayList<>();
        Set<String> tables = new java.util.HashSet<>();
        Set<String> topics = new java.util.HashSet<>();
        for (Path file : files) {
            Registration registration = read(file);
            if (!tables.add(registration.table().name()) || !topics.add(registration.rowTopic())) {
                throw new IllegalArgumentException("table registration " + file + ": table "
                        + registration.table().name() + " or row topic " + registration.rowTopic()
                        + " is registered twice");
            }
            registrations.add(registration);
        }
        return registrations;
    }

    /**
     * Binds a registered table.
     *
     * @param session      an open session, not null
     * @param keyspace     keyspace of the table
     * @param options      consistency level and TTL, not null
     * @param registration the table, not null
     * @return the sink's binding of the table
     * @throws com.datastax.oss.driver.api.core.DriverException if the table does not exist
     */
    public static SinkTable<GenericRecord> bind(
            CqlSession session, String keyspace, SinkTable.Options options, Registration registration) {
        return SinkTable.of(session, keyspace, options, registration.binding(), deserializer(registration.rowSchema()));
    }

    /**
     * @param schema the row schema, not null
     * @return a reader of single-object encoded records of that schema (Avro's {@link BinaryMessageDecoder})
     */
    static Deserializer<GenericRecord> deserializer(Schema schema) {
        BinaryMessageDecoder<GenericRecord> decoder = new BinaryMessageDecoder<>(GenericData.get(), schema);
        return (topic, bytes) -> {
            if (bytes == null) {
                throw new SerializationException("a row of " + topic + " has no value");
            }
            try {
                return decoder.decode(bytes);
            } catch (IOException | AvroRuntimeException e) {
                throw new SerializationException(
                        "not a single-object encoded " + schema.getFullName() + " record: " + e.getMessage(), e);
            }
        };
    }

    private static TableDescriptor table(Path cql, String name, Path file) {
        String text;
        try {
            text = Files.readString(cql, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("table registration " + file + ": cannot read " + cql + ": " + e, e);
        }
        List<TableDescriptor> tables = new ArrayList<>();
        try {
            for (String statement : CqlScript.parse(
                            cql.getFileName().toString(), text, Map.of("keyspace", "ks", "replication", "{}"))
                    .statements()) {
                CqlTableDefinition.parse(statement).map(TableDescriptor::of).ifPresent(tables::add);
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("table registration " + file + ": " + cql + ": " + e.getMessage(), e);
        }
        List<TableDescriptor> chosen = name == null
                ? tables
                : tables.stream().filter(t -> t.name().equals(name.trim())).toList();
        if (chosen.size() != 1) {
            throw new IllegalArgumentException("table registration " + file + ": " + cql + " has "
                    + (chosen.isEmpty() ? "no" : "more than one") + " CREATE TABLE"
                    + (name == null ? " (name one with table=)" : " of table " + name) + "; it has: "
                    + tables.stream().map(TableDescriptor::name).toList());
        }
        return chosen.get(0);
    }

    private static Schema schema(Path avsc, Path file) {
        try {
            return new Schema.Parser().parse(avsc.toFile());
        } catch (IOException | SchemaParseException e) {
            throw new IllegalArgumentException(
                    "table registration " + file + ": cannot read the row schema " + avsc + ": " + e.getMessage(), e);
        }
    }

    private static String required(Properties properties, String key, Path file) {
        String value = properties.getProperty(key);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("table registration " + file + ": " + key + " is missing");
        }
        return value.trim();
    }
}
