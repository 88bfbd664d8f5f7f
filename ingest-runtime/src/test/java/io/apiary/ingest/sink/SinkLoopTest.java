package io.apiary.ingest.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import io.apiary.ingest.config.ConfigLoader;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.deadletter.DeadLetterHeaders;
import io.apiary.ingest.metrics.MetricNames;
import io.apiary.ingest.metrics.PrometheusConventions;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The sink's whole poll loop, driven by Kafka's {@link MockConsumer} and a scripted
 * {@link CassandraWriter}: no broker and no Cassandra, so each test sets up exactly the timing it
 * is about (a write held in flight, an outage, a refusal). The integration tests ({@code SinkIT},
 * {@code ShutdownDrainIT}, {@code TokenAwareIT}) stay the evidence against the real servers.
 *
 * <p>Row values are text {@code partition|clustering|value}; a value starting with {@code undecodable}
 * fails to decode. A write's rows are named by their values.
 */
class SinkLoopTest {

    private static final String TOPIC = "rows";
    private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);
    private static final TopicPartition P1 = new TopicPartition(TOPIC, 1);

    private final ScriptedTable table = new ScriptedTable();
    private final ScriptedWriter writer = new ScriptedWriter(table);
    private final QuietMockConsumer consumer = new QuietMockConsumer();
    private final MockProducer<byte[], byte[]> deadLetters =
            new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private CassandraSink sink;
    private Thread loop;

    @AfterEach
    void stop() throws InterruptedException {
        if (sink != null) {
            writer.hold(values -> false);
            writer.releaseAll();
            sink.stop();
            assertThat(sink.awaitStopped(Duration.ofSeconds(20))).isTrue();
        }
    }

    @Test
    void writes_each_partitions_rows_as_one_batch_and_commits_after_the_last_acknowledgement() {
        start(Map.of());
        assign(P0, P1);
        add(P0, "a|1|x", "a|2|x", "a|3|x");
        add(P1, "b|1|x", "b|2|x");

        await().atMost(Duration.ofSeconds(10)).until(() -> committed(P0) == 3 && committed(P1) == 2);
        assertThat(writer.requests())
                .extracting(this::values)
                .containsExactlyInAnyOrder(List.of("a|1|x", "a|2|x", "a|3|x"), List.of("b|1|x", "b|2|x"));
        assertThat(sink.rowsWritten(ScriptedTable.NAME)).isEqualTo(5);
        assertThat(deadLetters.history()).isEmpty();
    }

    @Test
    void meters_scrape_as_numbers_with_one_unit_each_and_few_buckets_idle_and_busy() {
        start(Map.of());
        assign(P0, P1);
        String idle = registry.scrape();
        PrometheusConventions.check(idle);
        assertThat(idle).contains("\napiary_sink_in_flight_requests 0.0", "\napiary_sink_in_flight_limit_requests ");

        writer.hold(values -> values.contains("b|1|x"));
        add(P0, "a|1|x", "a|2|x", "a|3|x");
        add(P1, "b|1|x");
        await().atMost(Duration.ofSeconds(10))
                .until(() -> committed(P0) == 3
                        && registry.get(MetricNames.SINK_IN_FLIGHT).gauge().value() == 1);
        String busy = registry.scrape();
        PrometheusConventions.check(busy);
        assertThat(busy)
                .containsPattern("apiary_sink_batch_rows_bucket\\{[^}]*le=\"5.0\"[^}]*} 1")
                .contains("apiary_sink_write_latency_seconds_bucket{")
                .contains("apiary_sink_batch_linger_seconds_bucket{")
                .contains("apiary_sink_batch_bytes_bucket{");
    }

    @Test
    void commits_only_offsets_below_the_first_unacknowledged_row() {
        writer.hold(values -> values.contains("a|1|x"));
        start(Map.of(IngestConfig.SINK_BATCH_MAX_ROWS, "1"));
        assign(P0);
        add(P0, "a|1|x", "a|2|x", "a|3|x");

        await().atMost(Duration.ofSeconds(10)).until(() -> writer.acknowledgedRows() == 2);
        sleep(300); // several commit intervals
        assertThat(committed(P0))
                .as("offset 0 is in flight: nothing past it is committed")
                .isLessThanOrEqualTo(0);

        writer.releaseAll();
        await().atMost(Duration.ofSeconds(10)).until(() -> committed(P0) == 3);
    }

    @Test
    void a_refused_batch_is_split_down_to_its_bad_row_which_goes_to_the_dead_letter_topic() {
        writer.refuse(values -> values.contains("a|3|bad"));
        start(Map.of());
        assign(P0);
        add(P0, "a|1|x", "a|2|x", "a|3|bad", "a|4|x", "a|5|x");

        await().atMost(Duration.ofSeconds(10)).until(() -> committed(P0) == 5);
        assertThat(writer.acknowledged()).containsExactlyInAnyOrder("a|1|x", "a|2|x", "a|4|x", "a|5|x");
        assertThat(deadLetters.history()).hasSize(1);
        ProducerRecord<byte[], byte[]> letter = deadLetters.history().get(0);
        assertThat(new String(letter.value(), StandardCharsets.UTF_8)).isEqualTo("a|3|bad");
        assertThat(header(letter, DeadLetterHeaders.REASON)).isEqualTo("CASSANDRA_REJECTED");
        assertThat(header(letter, DeadLetterHeaders.SOURCE_OFFSET)).isEqualTo("2");
        assertThat(writer.requests()).as("the batch, then its rows one by one").hasSize(1 + 5);
    }

    @Test
    void an_undecodable_row_is_dead_lettered_and_the_rows_beside_it_land() {
        start(Map.of());
        assign(P0);
        add(P0, "a|1|x", "undecodable", "a|3|x");

        await().atMost(Duration.ofSeconds(10)).until(() -> committed(P0) == 3);
        assertThat(writer.acknowledged()).containsExactlyInAnyOrder("a|1|x", "a|3|x");
        assertThat(deadLetters.history())
                .singleElement()
                .satisfies(r -> assertThat(header(r, DeadLetterHeaders.REASON)).isEqualTo("UNDECODABLE"));
    }

    @Test
    void retries_through_an_outage_until_every_row_is_written_and_lowers_its_limit_meanwhile() {
        AtomicInteger failures = new AtomicInteger(12);
        writer.fail(values -> failures.getAndDecrement() > 0 ? new DriverTimeoutException("outage") : null);
        start(Map.of(
                IngestConfig.SINK_BATCH_MAX_ROWS,
                "2",
                IngestConfig.SINK_RETRY_BACKOFF_MS,
                "5",
                IngestConfig.SINK_RETRY_BACKOFF_MAX_MS,
                "20",
                IngestConfig.SINK_LIMIT_ALGORITHM,
                "aimd"));
        assign(P0, P1);
        add(P0, "a|1|x", "a|2|x", "a|3|x", "a|4|x");
        add(P1, "b|1|x", "b|2|x");

        await().atMost(Duration.ofSeconds(20)).until(() -> committed(P0) == 4 && committed(P1) == 2);
        assertThat(writer.acknowledged())
                .containsExactlyInAnyOrder("a|1|x", "a|2|x", "a|3|x", "a|4|x", "b|1|x", "b|2|x");
        assertThat(registry.counter(MetricNames.SINK_RETRIES, "cause", "DriverTimeoutException")
                        .count())
                .isEqualTo(12);
        assertThat(registry.get(MetricNames.SINK_IN_FLIGHT_LIMIT).gauge().value())
                .isLessThan(256);
        assertThat(deadLetters.history()).as("a timeout never dead-letters").isEmpty();
    }

    @Test
    void pauses_its_partitions_while_its_buffer_is_full_and_resumes_once_writes_drain() {
        writer.hold(values -> true);
        start(Map.of(IngestConfig.SINK_MAX_BUFFERED_ROWS, "4", IngestConfig.SINK_BATCH_MAX_ROWS, "2"));
        assign(P0, P1);
        add(P0, "a|1|x", "a|2|x", "a|3|x");
        add(P1, "b|1|x", "b|2|x", "b|3|x");

        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.pausedNow().containsAll(Set.of(P0, P1)));
        writer.hold(values -> false);
        writer.releaseAll();
        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.pausedNow().isEmpty());
        add(P0, "a|4|x");
        await().atMost(Duration.ofSeconds(10)).until(() -> committed(P0) == 4 && committed(P1) == 3);
    }

    @Test
    void on_revocation_waits_for_in_flight_writes_and_commits_what_they_acknowledged() {
        writer.hold(values -> values.contains("a|1|x"));
        start(Map.of());
        assign(P0, P1);
        add(P0, "a|1|x", "a|2|x");
        add(P1, "b|1|x");
        await().atMost(Duration.ofSeconds(10)).until(() -> writer.held() == 1 && committed(P1) == 1);

        // acknowledge the held write while the revocation waits for it
        new Thread(() -> {
                    sleep(200);
                    writer.releaseAll();
                })
                .start();
        consumer.schedulePollTask(() -> consumer.rebalance(List.of(P1)));

        await().atMost(Duration.ofSeconds(10)).until(() -> committed(P0) == 2);
        assertThat(consumer.assignment()).containsExactly(P1);
    }

    @Test
    void a_write_still_in_flight_after_the_drain_timeout_is_abandoned_and_its_rows_stay_uncommitted() {
        writer.hold(values -> values.contains("a|1|x"));
        start(Map.of(IngestConfig.SINK_DRAIN_TIMEOUT_MS, "200"));
        assign(P0, P1);
        add(P0, "a|1|x");
        add(P0, "a|2|y"); // same partition key, one batch with a|1|x
        add(P1, "b|1|x");
        await().atMost(Duration.ofSeconds(10)).until(() -> writer.held() == 1 && committed(P1) == 1);

        consumer.schedulePollTask(() -> consumer.rebalance(List.of(P1)));
        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.assignment().equals(Set.of(P1)));
        writer.releaseAll(); // Cassandra answers after all: the new owner of P0 writes these rows again
        add(P1, "b|2|x");
        await().atMost(Duration.ofSeconds(10)).until(() -> committed(P1) == 2);
        assertThat(committed(P0)).as("nothing of P0 was acknowledged in time").isLessThanOrEqualTo(0);
        assertThat(registry.get(MetricNames.SINK_BUFFERED_BYTES).gauge().value())
                .as("the abandoned rows no longer count against the buffer")
                .isZero();
    }

    @Test
    void on_stop_writes_the_lingering_rows_and_commits_them() throws InterruptedException {
        start(Map.of(IngestConfig.SINK_LINGER_MS, "60000"));
        assign(P0);
        add(P0, "a|1|x", "a|2|x");
        await().atMost(Duration.ofSeconds(10)).until(() -> sink.activity().heldRows() == 2);
        assertThat(writer.requests()).as("lingering for a minute").isEmpty();

        sink.stop();
        assertThat(sink.awaitStopped(Duration.ofSeconds(10))).isTrue();
        assertThat(writer.acknowledged()).containsExactlyInAnyOrder("a|1|x", "a|2|x");
        assertThat(consumer.lastCommitted(P0)).isEqualTo(2);
        sink = null;
    }

    @Test
    void with_combining_on_small_batches_of_partitions_with_the_same_replicas_share_a_request() {
        start(Map.of(IngestConfig.SINK_COMBINE_REPLICAS, "true", IngestConfig.SINK_LINGER_MS, "200"));
        assign(P0);
        add(P0, "a|1|x", "b|1|x", "c|1|x", "d|1|x", "e|1|x");

        await().atMost(Duration.ofSeconds(10)).until(() -> committed(P0) == 5);
        assertThat(writer.requests())
                .as("five partitions of one replica, lingered together: one request")
                .hasSize(1);
        assertThat(registry.get(MetricNames.SINK_BATCH_PARTITIONS).summary().max())
                .isEqualTo(5);
    }

    @Test
    void a_lingered_batch_goes_before_younger_full_batches_so_commits_advance_during_a_backlog() {
        // 10 rows/s in 2-row batches: the first 10 rows go at once, then one batch every 200 ms
        start(Map.of(
                IngestConfig.SINK_MAX_ROWS_PER_SECOND,
                "10",
                IngestConfig.SINK_BATCH_MAX_ROWS,
                "2",
                IngestConfig.SINK_LINGER_MS,
                "500"));
        java.util.concurrent.atomic.AtomicLong acknowledgedAtFirstCommit =
                new java.util.concurrent.atomic.AtomicLong(-1);
        consumer.onCommit(offsets -> {
            OffsetAndMetadata p0 = offsets.get(P0);
            if (p0 != null && p0.offset() >= 1) {
                acknowledgedAtFirstCommit.compareAndSet(-1, writer.acknowledgedRows());
            }
        });
        assign(P0);
        add(P0, "a|1|x");
        await().atMost(Duration.ofSeconds(10)).until(() -> sink.activity().heldRows() == 1);
        add(P0, rows("b", 40));

        await().atMost(Duration.ofSeconds(10)).until(() -> committed(P0) >= 1);
        assertThat(acknowledgedAtFirstCommit.get())
                .as("offset 0 committed while most of the backlog still waits")
                .isBetween(1L, 30L);
        assertThat(requestOf("a|1|x")).as("the lingered row's request").isBetween(0, 12);
        await().atMost(Duration.ofSeconds(10)).until(() -> committed(P0) == 41);
    }

    @Test
    void a_batch_that_fills_up_late_keeps_its_age_and_goes_before_younger_full_batches() {
        start(Map.of(
                IngestConfig.SINK_MAX_ROWS_PER_SECOND,
                "10",
                IngestConfig.SINK_BATCH_MAX_ROWS,
                "2",
                IngestConfig.SINK_LINGER_MS,
                "60000"));
        assign(P0);
        add(P0, "a|1|x");
        await().atMost(Duration.ofSeconds(10)).until(() -> sink.activity().heldRows() == 1);
        add(P0, rows("b", 40));
        await().atMost(Duration.ofSeconds(10)).until(() -> writer.requests().size() >= 5);
        add(P0, "a|2|x"); // fills a's batch: full now, but its first row is older than every b batch

        await().atMost(Duration.ofSeconds(10)).until(() -> writer.acknowledged().contains("a|2|x"));
        assertThat(requestOf("a|2|x"))
                .as("a's batch, closed after the b batches queued")
                .isBetween(0, 10);
        await().atMost(Duration.ofSeconds(10)).until(() -> committed(P0) == 42);
    }

    private static String[] rows(String key, int count) {
        String[] values = new String[count];
        for (int i = 0; i < count; i++) {
            values[i] = key + "|" + i + "|x";
        }
        return values;
    }

    /** @return the index of the first request holding the value, or -1 */
    private int requestOf(String value) {
        List<List<SinkTable.Write>> requests = writer.requests();
        for (int i = 0; i < requests.size(); i++) {
            if (values(requests.get(i)).contains(value)) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void conflicting_versions_of_one_row_in_a_batch_are_counted() {
        start(Map.of());
        assign(P0);
        add(P0, "a|1|x", "a|1|y", "a|1|x", "a|2|x");
        await().atMost(Duration.ofSeconds(10)).until(() -> committed(P0) == 4);
        assertThat(registry.get(MetricNames.WRITE_CONFLICTS).counter().count()).isEqualTo(1);
    }

    @Test
    void times_a_write_from_its_send_to_cassandras_answer_not_to_when_the_poll_thread_gets_to_it() {
        // the loop's clock jumps 10 s once the request is out, as if the poll thread got to the answer
        // 10 s late; Cassandra's answer comes on another thread, whose clock does not jump
        java.util.concurrent.atomic.AtomicLong loopDelay = new java.util.concurrent.atomic.AtomicLong();
        Thread[] loopThread = new Thread[1];
        writer.hold(values -> values.contains("a|1|x"));
        start(Map.of(), () -> System.nanoTime() + (Thread.currentThread() == loopThread[0] ? loopDelay.get() : 0L));
        loopThread[0] = loop;
        assign(P0);
        add(P0, "a|1|x");
        await().atMost(Duration.ofSeconds(10)).until(() -> writer.held() == 1);

        loopDelay.set(Duration.ofSeconds(10).toNanos());
        writer.releaseAll();
        await().atMost(Duration.ofSeconds(10)).until(() -> committed(P0) == 1);

        io.micrometer.core.instrument.Timer latency =
                registry.get(MetricNames.SINK_WRITE_LATENCY).timer();
        assertThat(latency.count()).isEqualTo(1);
        assertThat(latency.max(java.util.concurrent.TimeUnit.SECONDS))
                .as("the write's latency, without the poll thread's delay")
                .isLessThan(5);
    }

    // --- the loop's surroundings ---

    private void start(Map<String, String> overrides) {
        start(overrides, System::nanoTime);
    }

    private void start(Map<String, String> overrides, java.util.function.LongSupplier clock) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(IngestConfig.SINK_LINGER_MS, "0");
        settings.put(IngestConfig.SINK_COMMIT_INTERVAL_MS, "20");
        settings.put("sink.hot.enabled", "false");
        settings.putAll(overrides);
        IngestConfig config = ConfigLoader.load(null, Map.of(), settings);
        sink = new CassandraSink(
                SinkSettings.from(config),
                writer,
                Map.of(TOPIC, table),
                consumer,
                deadLetters,
                registry,
                clock,
                (w, r) -> null);
        loop = new Thread(sink, "sink-loop-test");
        loop.start();
    }

    private void assign(TopicPartition... partitions) {
        List<TopicPartition> all = List.of(partitions);
        Map<TopicPartition, Long> beginning = new HashMap<>();
        all.forEach(p -> beginning.put(p, 0L));
        consumer.schedulePollTask(() -> {
            consumer.rebalance(all);
            consumer.updateBeginningOffsets(beginning);
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> consumer.assignment().containsAll(all));
    }

    private final Map<TopicPartition, Long> nextOffsets = new HashMap<>();

    /**
     * Adds the values as records of one poll: MockConsumer's methods synchronize on it, so holding its
     * lock keeps the sink's poll from returning the first value alone (a 200 ms linger could then end
     * before the rest arrive on a loaded machine, as CI saw).
     */
    private void add(TopicPartition partition, String... values) {
        synchronized (consumer) {
            addUnderLock(partition, values);
        }
    }

    private void addUnderLock(TopicPartition partition, String... values) {
        for (String value : values) {
            long offset = nextOffsets.merge(partition, 1L, Long::sum) - 1;
            String key = value.split("\\|")[0];
            consumer.addRecord(new ConsumerRecord<>(
                    partition.topic(),
                    partition.partition(),
                    offset,
                    key.getBytes(StandardCharsets.UTF_8),
                    value.getBytes(StandardCharsets.UTF_8)));
        }
    }

    private long committed(TopicPartition partition) {
        Long offset = committedOrNull(partition);
        return offset == null ? -1 : offset;
    }

    private Long committedOrNull(TopicPartition partition) {
        return consumer.lastCommitted(partition);
    }

    private List<String> values(List<SinkTable.Write> writes) {
        return writes.stream().map(table::valueOf).collect(Collectors.toList());
    }

    private static String header(ProducerRecord<byte[], byte[]> record, String name) {
        return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A MockConsumer whose poll waits a little when it has nothing (the real one waits up to its
     * timeout), so the loop does not spin, and whose committed offsets the test thread can read.
     */
    static final class QuietMockConsumer extends MockConsumer<byte[], byte[]> {
        private final Map<TopicPartition, Long> committed = new java.util.concurrent.ConcurrentHashMap<>();
        private volatile java.util.function.Consumer<Map<TopicPartition, OffsetAndMetadata>> onCommit = offsets -> {};
        private volatile Set<TopicPartition> pausedNow = Set.of();

        QuietMockConsumer() {
            super("earliest");
        }

        @Override
        public synchronized ConsumerRecords<byte[], byte[]> poll(Duration timeout) {
            ConsumerRecords<byte[], byte[]> records = super.poll(timeout);
            pausedNow = Set.copyOf(super.paused());
            if (records.isEmpty()) {
                try {
                    wait(Math.max(1, Math.min(2, timeout.toMillis())));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return records;
        }

        @Override
        public synchronized void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets) {
            super.commitSync(offsets);
            offsets.forEach((p, o) -> committed.put(p, o.offset()));
            onCommit.accept(offsets);
        }

        @Override
        public synchronized void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) {
            super.commitSync(offsets, timeout);
            offsets.forEach((p, o) -> committed.put(p, o.offset()));
            onCommit.accept(offsets);
        }

        @Override
        public synchronized void commitAsync(
                Map<TopicPartition, OffsetAndMetadata> offsets,
                org.apache.kafka.clients.consumer.OffsetCommitCallback callback) {
            super.commitAsync(offsets, callback);
            offsets.forEach((p, o) -> committed.put(p, o.offset()));
            onCommit.accept(offsets);
        }

        /** @param hook called on the sink's thread with the offsets of each commit */
        void onCommit(java.util.function.Consumer<Map<TopicPartition, OffsetAndMetadata>> hook) {
            onCommit = hook;
        }

        Long lastCommitted(TopicPartition partition) {
            return committed.get(partition);
        }

        Set<TopicPartition> pausedNow() {
            return pausedNow;
        }
    }

    /** Rows as text {@code partition|clustering|value}; the partition is the routing key. */
    static final class ScriptedTable implements RowBinding {
        static final String NAME = "scripted";
        private final Map<SinkTable.Write, String> values = Collections.synchronizedMap(new IdentityHashMap<>());

        @Override
        public String table() {
            return NAME;
        }

        @Override
        public String keyspace() {
            return "test";
        }

        @Override
        public SinkTable.Write bind(byte[] value) {
            String text = new String(value, StandardCharsets.UTF_8);
            if (text.startsWith("undecodable")) {
                throw new SerializationException("not a row: " + text);
            }
            String[] parts = text.split("\\|");
            SinkTable.Write write = new SinkTable.Write(
                    List.of(),
                    ByteBuffer.wrap(parts[0].getBytes(StandardCharsets.UTF_8)),
                    40 + value.length,
                    parts[2].hashCode());
            values.put(write, text);
            return write;
        }

        @Override
        public boolean rowsAreUpdates() {
            return false;
        }

        @Override
        public Object primaryKey(SinkTable.Write write) {
            String[] parts = valueOf(write).split("\\|");
            return List.of(parts[0], parts[1]);
        }

        String valueOf(SinkTable.Write write) {
            return values.get(write);
        }
    }

    /**
     * Answers each request by script: refuse (invalid, as Cassandra refuses a row), fail
     * (retryable), hold (in flight until released), else acknowledge at once.
     */
    static final class ScriptedWriter implements CassandraWriter {
        private final ScriptedTable table;
        private final List<List<SinkTable.Write>> requests = new CopyOnWriteArrayList<>();
        private final List<String> acknowledged = new CopyOnWriteArrayList<>();
        private final List<Runnable> held = new CopyOnWriteArrayList<>();
        private volatile java.util.function.Predicate<List<String>> refuse = v -> false;
        private volatile java.util.function.Predicate<List<String>> hold = v -> false;
        private volatile Function<List<String>, RuntimeException> fail = v -> null;

        ScriptedWriter(ScriptedTable table) {
            this.table = table;
        }

        void refuse(java.util.function.Predicate<List<String>> which) {
            refuse = which;
        }

        void hold(java.util.function.Predicate<List<String>> which) {
            hold = which;
        }

        void fail(Function<List<String>, RuntimeException> which) {
            fail = which;
        }

        @Override
        public CompletionStage<Acknowledgement> execute(List<SinkTable.Write> writes) {
            requests.add(List.copyOf(writes));
            List<String> values = writes.stream().map(table::valueOf).toList();
            CompletableFuture<Acknowledgement> answer = new CompletableFuture<>();
            Runnable respond = () -> {
                RuntimeException error = fail.apply(values);
                if (error != null) {
                    answer.completeExceptionally(error);
                } else if (refuse.test(values)) {
                    answer.completeExceptionally(new InvalidQueryException(null, "refused: " + values));
                } else {
                    acknowledged.addAll(values);
                    answer.complete(new Acknowledgement("node1", List.of()));
                }
            };
            if (hold.test(values)) {
                held.add(respond);
            } else {
                respond.run();
            }
            return answer;
        }

        void releaseAll() {
            List<Runnable> now = new ArrayList<>(held);
            held.removeAll(now);
            now.forEach(Runnable::run);
        }

        int held() {
            return held.size();
        }

        List<List<SinkTable.Write>> requests() {
            return requests;
        }

        List<String> acknowledged() {
            return acknowledged;
        }

        int acknowledgedRows() {
            return acknowledged.size();
        }

        @Override
        public Collection<?> replicas(String keyspace, ByteBuffer routingKey) {
            return List.of("node1");
        }

        @Override
        public String nodeName(Object node) {
            return String.valueOf(node);
        }

        @Override
        public ServerBatchLimits serverLimits() {
            return ServerBatchLimits.STOCK;
        }
    }
}
