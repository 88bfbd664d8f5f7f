package io.apiary.ingest.topology;

import io.apiary.ingest.sink.ExtraTables;
import io.apiary.ingest.sink.SinkTable;
import io.apiary.ingest.tables.TableDescriptor;
import io.apiary.ingest.topics.Topic;
import io.apiary.ingest.topics.Topics;
import io.apiary.ingest.validation.RecordValidator;
import java.util.Objects;
import java.util.function.Function;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.IndexedRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;

/**
 * One table the pipeline writes, described in one place: the row topic the sink reads (with its
 * serdes), the Cassandra table and how rows fill it (the {@link SinkTable.Binding}, whose
 * {@link TableDescriptor} comes from the table's {@code CREATE TABLE}), and, for a table fed from a
 * gateway topic, that topic with its validator and row mapper ({@link Input}). The built-in tables
 * are {@link BuiltInTables}; a table of {@code sink.extra.tables} becomes one by
 * {@link #registered}. The topology builds a validated stream per spec with an input
 * ({@link IngestTopology#build}); the sink builds a {@link SinkTable} per spec.
 *
 * <p>Immutable and thread-safe if its functions are (those of this package are).
 *
 * @param binding  how rows fill the table's columns, not null; {@code binding.table()} is the table
 * @param rowTopic the row topic (name and serdes) under the given topic names and wire format, not
 *                 null; its value serde is what the sink reads rows with
 * @param input    the gateway topic, validator and row mapper that feed the row topic, or null for
 *                 a table whose rows come from elsewhere (hive_activity: the hourly aggregation; a
 *                 registered table: its own producers)
 * @param <K>      the row topic's key type
 * @param <R>      the row topic's value type, the row record
 */
public record TableSpec<K, R extends IndexedRecord>(
        SinkTable.Binding<R> binding, Function<Topics, Topic<K, R>> rowTopic, Input<?, K, R> input) {

    /**
     * A gateway topic as the source of a table's rows.
     *
     * @param name      prefix of the topology's processor names ({@code <name>-source}, {@code
     *                  <name>-check}, {@code <name>-bucket}, {@code <name>-rows-sink}), not null;
     *                  these name internal topics and state of running deployments, so it never changes
     * @param topic     the gateway topic under the given topic names and wire format, not null
     * @param validator the checks of its records under the given settings, not null
     * @param mapper    the row (keyed by its partition key) of a valid record under the given
     *                  settings (shard count, shard strategy), not null
     * @param <I>       the gateway topic's value type
     * @param <K>       the row topic's key type
     * @param <R>       the row topic's value type
     */
    public record Input<I, K, R>(
            String name,
            Function<Topics, Topic<String, I>> topic,
            Function<TopologySettings, RecordValidator<I>> validator,
            Function<TopologySettings, Function<I, KeyValue<K, R>>> mapper) {

        /** Checks that no component is null. */
        public Input {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(topic, "topic");
            Objects.requireNonNull(validator, "validator");
            Objects.requireNonNull(mapper, "mapper");
        }
    }

    /** Checks that binding and row topic are set. */
    public TableSpec {
        Objects.requireNonNull(binding, "binding");
        Objects.requireNonNull(rowTopic, "rowTopic");
    }

    /**
     * A table of {@code sink.extra.tables}: its row topic keyed by opaque bytes (the sink reads only
     * values), its values read by {@link ExtraTables#rowSerde}; no input.
     *
     * @param registration the registered table, not null
     * @return its spec
     */
    public static TableSpec<byte[], GenericRecord> registered(ExtraTables.Registration registration) {
        return new TableSpec<>(
                registration.binding(),
                topics -> new Topic<>(
                        registration.rowTopic(),
                        Serdes.ByteArray(),
                        ExtraTables.rowSerde(registration, topics.wireFormat())),
                null);
    }

    /** @return the table, from its {@code CREATE TABLE} */
    public TableDescriptor table() {
        return binding.table();
    }

    /**
     * Binds the table for the sink, reading the row topic's values with its value serde.
     *
     * @param session  an open session, not null
     * @param keyspace keyspace of the table
     * @param options  consistency level and TTL, not null
     * @param topics   the topic names and wire format, not null
     * @return the sink's binding of the table
     * @throws com.datastax.oss.driver.api.core.DriverException if Cassandra refuses to prepare the
     *         statements (e.g. the table does not exist)
     */
    public SinkTable<R> sinkTable(
            com.datastax.oss.driver.api.core.CqlSession session,
            String keyspace,
            SinkTable.Options options,
            Topics topics) {
        return SinkTable.of(
                session,
                keyspace,
                options,
                binding,
                rowTopic.apply(topics).valueSerde().deserializer());
    }
}
