package io.apiary.ingest.sink;

import io.apiary.ingest.serde.AvroWireSerde;
import io.apiary.ingest.serde.SchemaSubjects;
import io.apiary.ingest.serde.WireFormat;
import io.apiary.ingest.tables.CqlScript;
import io.apiary.ingest.tables.CqlTableDefinition;
import io.apiary.ingest.tables.TableDescriptor;
import java.io.IOException;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
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
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * Tables the sink writes beside those of {@code cql/}: each described by its own {@code CREATE
 * TABLE} and fed by its own row topic, whose values are Avro records of a row schema in the
 * pipeline's {@link WireFormat}, like every other topic: registry framing (byte {@code 0}, the
 * 4-byte schema id, the body; any registry-aware serializer writes it) with the schema under the
 * topic's subject {@code <row topic>-value}, where the sink registers or looks up its row schema
 * at start ({@link Registration#subject()}) and which it resolves each writer's schema against;
 * and, while {@code wire.format.read.single.object} allows it, single-object encoding of the row
 * schema itself ({@code C3 01}, the schema's fingerprint, the body; Avro's {@code
 * BinaryMessageEncoder} writes it). No code: a registration file names the parts.
 *
 * <p>A registration is a {@code .properties} file (UTF-8), paths relative to it, written with
 * {@code /} (a backslash is an escape in {@code .properties}); a comment is a line of its own that
 * starts with {@code #} (after a value, {@code #} is part of the value):
 *
 * <pre>
 * # the CQL file with the table's CREATE TABLE (required)
 * cql=050-hive_weight.cql
 * # which table of the file, if it has several
 * table=hive_weight
 * # the row topic (required; not one of the pipeline's own)
 * row.topic=rows.hive_weight.v1
 * # the rows' Avro schema, a record (required)
 * row.schema=HiveWeightRow.avsc
 * # a column filled from a field of another name (optional)
 * column.weight_kg.field=weight
 * # whether rows of one key are updates of one thing, so no conflicts are counted (default false)
 * rows.are.updates=false
 * </pre>
 *
 * <p>A key given twice, an unknown key, a row topic Kafka would refuse or a table or topic of the
 * pipeline's own is refused with the file's name. Each column takes the row field of its name (or
 * the one named), of a type that fits it ({@code text} or {@code varchar} a string or enum,
 * {@code int} an int, {@code bigint} a long or int, {@code double} a double or float, {@code float}
 * a float, {@code boolean} a boolean, {@code date} an int with or without logical type
 * {@code date}, {@code timestamp} a long with or without {@code timestamp-millis}; another logical
 * type, such as {@code timestamp-micros}, is refused); key columns must not be nullable. A nullable
 * regular field left null writes no cell; a table with such a field deletes each row (at its write
 * time minus one) before writing it, so that no cell of an earlier write survives. The write time
 * follows the table's time column, its first {@code timestamp} clustering column
 * ({@link WriteTimestamps#event}); a table without one cannot be registered. Consistency is
 * {@code sink.consistency}, the TTL the table's own {@code default_time_to_live}. A value with
 * bytes after its record or a string that is not UTF-8 is dead-lettered, not stored.
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

        /**
         * @return the registry subject of the row topic's values, {@code <row topic>-value}, holding
         *         the row schema (its only kept version)
         */
        public SchemaSubjects.Subject subject() {
            return SchemaSubjects.Subject.ofSchema(rowTopic, false, rowSchema);
        }

        /** @return how messages name the row schema: its full name and the registration file */
        String schemaOrigin() {
            return "the row schema " + rowSchema.getFullName() + " of " + file;
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
        Set<String> repeated = new TreeSet<>();
        Properties properties = new Properties() {
            @Override
            public synchronized Object put(Object key, Object value) {
                if (containsKey(key)) {
                    repeated.add(key.toString()); // Properties would keep the last one without a word
                }
                return super.put(key, value);
            }
        };
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new IllegalArgumentException("table registration " + file + ": cannot be read: " + e, e);
        }
        if (!repeated.isEmpty()) {
            throw new IllegalArgumentException(
                    "table registration " + file + ": " + String.join(", ", repeated) + " given more than once");
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
        String rowTopic = required(properties, "row.topic", file);
        try {
            Topic.validate(rowTopic);
        } catch (InvalidTopicException e) {
            throw new IllegalArgumentException("table registration " + file + ": row.topic: " + e.getMessage(), e);
        }
        Registration registration =
                new Registration(file, table, rowTopic, schema, Map.copyOf(fields), updates.equals("true"));
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
     * The serde of a registered table's row topic values: {@link AvroWireSerde} of the row schema in
     * {@code format}, reading as {@link #deserializer} does.
     *
     * @param registration the table, not null
     * @param format       the topics' wire format (its registry, whether single-object is still read), not null
     * @return the serde (thread-safe)
     */
    public static Serde<GenericRecord> rowSerde(Registration registration, WireFormat format) {
        AvroWireSerde<GenericRecord> serde = wireSerde(registration, format);
        return Serdes.serdeFrom(serde.serializer(), strict(registration, serde));
    }

    /**
     * A strict reader of a registered table's row topic: {@link AvroWireSerde} of the row schema
     * in {@code format} (registry framing resolved to the row schema; single-object encoding of the
     * row schema while the format accepts it), then a check of every string.
     *
     * @param registration the table, not null
     * @param format       the topics' wire format, not null
     * @return a deserializer (thread-safe) whose every fault, a null value, a framing the format
     *         refuses, an unknown schema id or one that does not resolve to the row schema, a
     *         value with bytes after the record or a string that is not valid UTF-8, raises
     *         {@link SerializationException} (the sink dead-letters the record) rather than
     *         yielding a record that differs from what was sent; a registry that cannot be reached
     *         raises {@link io.apiary.ingest.serde.SchemaRegistryException} (the sink stops
     *         uncommitted, the record is not dead-lettered)
     */
    static Deserializer<GenericRecord> deserializer(Registration registration, WireFormat format) {
        return strict(registration, wireSerde(registration, format));
    }

    private static AvroWireSerde<GenericRecord> wireSerde(Registration registration, WireFormat format) {
        return format.genericSerde(registration.rowSchema(), registration.schemaOrigin(), false);
    }

    private static Deserializer<GenericRecord> strict(Registration registration, AvroWireSerde<GenericRecord> serde) {
        Schema schema = registration.rowSchema();
        return (topic, bytes) -> {
            if (bytes == null) {
                throw new SerializationException("a row of " + registration.rowTopic() + " has no value");
            }
            GenericRecord record = serde.decode(bytes);
            checkUtf8(record, schema.getFullName());
            return record;
        };
    }

    /** Avro's {@link Utf8} does not check its bytes; a string that is not UTF-8 would be stored with U+FFFD. */
    private static void checkUtf8(Object value, String where) {
        if (value instanceof Utf8 text) {
            try {
                StandardCharsets.UTF_8
                        .newDecoder()
                        .onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT)
                        .decode(ByteBuffer.wrap(text.getBytes(), 0, text.getByteLength()));
            } catch (CharacterCodingException e) {
                throw new SerializationException(where + " holds a string that is not valid UTF-8: " + e);
            }
        } else if (value instanceof GenericRecord nested) {
            for (Schema.Field field : nested.getSchema().getFields()) {
                checkUtf8(nested.get(field.pos()), where + "." + field.name());
            }
        } else if (value instanceof java.util.Collection<?> items) {
            for (Object item : items) {
                checkUtf8(item, where + "[]");
            }
        } else if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                checkUtf8(entry.getKey(), where + "{}");
                checkUtf8(entry.getValue(), where + "{}");
            }
        }
    }

    private static TableDescriptor table(Path cql, String name, Path file) {
        String text;
        try {
            text = Files.readString(cql, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("table registration " + file + ": cannot read " + cql + ": " + e, e);
        }
        List<String> statements;
        try {
            statements = CqlScript.parse(
                            cql.getFileName().toString(), text, Map.of("keyspace", "ks", "replication", "{}"))
                    .statements();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("table registration " + file + ": " + cql + ": " + e.getMessage(), e);
        }
        // each statement on its own: a fault in another table of the file does not stop this one
        List<TableDescriptor> tables = new ArrayList<>();
        List<String> faults = new ArrayList<>();
        for (String statement : statements) {
            try {
                java.util.Optional<CqlTableDefinition> definition = CqlTableDefinition.parse(statement);
                if (definition.isPresent()
                        && definition.get().keyspace() != null
                        && !definition.get().keyspace().equals("ks")) {
                    // ${keyspace} was read as "ks": another keyspace is one the sink would not write to
                    faults.add("table " + definition.get().name() + " names the keyspace "
                            + definition.get().keyspace()
                            + "; write ${keyspace}." + definition.get().name()
                            + " (the sink writes to cassandra.keyspace)");
                    continue;
                }
                definition.map(TableDescriptor::of).ifPresent(tables::add);
            } catch (IllegalArgumentException e) {
                faults.add(e.getMessage());
            }
        }
        List<TableDescriptor> chosen = name == null
                ? tables
                : tables.stream().filter(t -> t.name().equals(name.trim())).toList();
        if (chosen.size() != 1 || (name == null && !faults.isEmpty())) {
            String count = chosen.isEmpty() ? "no" : chosen.size() == 1 ? "a statement besides one" : "more than one";
            throw new IllegalArgumentException("table registration " + file + ": " + cql + " has " + count
                    + " CREATE TABLE"
                    + (name == null ? " (name one with table=)" : " of table " + name) + "; it has: "
                    + tables.stream().map(TableDescriptor::name).toList()
                    + (faults.isEmpty() ? "" : "; statements it cannot read: " + String.join("; ", faults)));
        }
        return chosen.get(0);
    }

    private static Schema schema(Path avsc, Path file) {
        Schema schema;
        try {
            schema = new Schema.Parser().parse(avsc.toFile());
        } catch (IOException
                | RuntimeException e) { // SchemaParseException, AvroRuntimeException ("Duplicate in union")
            throw new IllegalArgumentException(
                    "table registration " + file + ": cannot read the row schema " + avsc + ": " + e.getMessage(), e);
        }
        if (schema.getType() != Schema.Type.RECORD) {
            throw new IllegalArgumentException("table registration " + file + ": the row schema " + avsc + " is "
                    + schema.getType().getName() + ", not a record");
        }
        return schema;
    }

    private static String required(Properties properties, String key, Path file) {
        String value = properties.getProperty(key);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("table registration " + file + ": " + key + " is missing");
        }
        return value.trim();
    }
}
