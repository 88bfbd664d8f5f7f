package io.apiary.ingest.topology;

import static io.apiary.ingest.topology.TopologyFixture.sample;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.serde.AvroSingleObjectSerde;
import io.apiary.schema.EntranceCount;
import io.apiary.schema.HourlyActivity;
import io.apiary.schema.HourlyActivityState;
import io.apiary.schema.ResultTiming;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

/**
 * A restart of the hourly processor between an hour's close and its correction: a new processor
 * over the same stores (what a restore from the changelogs gives it) knows the hive's close time,
 * the closed hour's sums, its samples and a correction not yet published.
 */
class HourlyActivityRestartTest {

    private static final Duration UPDATE = Duration.ofSeconds(10);
    private static final Instant WALL_CLOCK = Instant.parse("2021-08-01T00:00:00Z");

    private final KeyValueStore<String, byte[]> hives = store(Stores.keyValueStoreBuilder(
            Stores.inMemoryKeyValueStore(HourlyActivityProcessor.HIVES_STORE), Serdes.String(), Serdes.ByteArray()));
    private final KeyValueStore<?, ?> hours = store(Stores.keyValueStoreBuilder(
            Stores.inMemoryKeyValueStore(HourlyActivityProcessor.HOURS_STORE),
            Serdes.Bytes(),
            AvroSingleObjectSerde.of(HourlyActivityState.class)));
    private final KeyValueStore<?, ?> samples = store(Stores.keyValueStoreBuilder(
            Stores.inMemoryKeyValueStore(HourlyActivityProcessor.SAMPLES_STORE), Serdes.Bytes(), Serdes.ByteArray()));
    private final KeyValueStore<?, ?> corrections = store(Stores.keyValueStoreBuilder(
            Stores.inMemoryKeyValueStore(HourlyActivityProcessor.CORRECTIONS_STORE),
            Serdes.Bytes(),
            Serdes.ByteArray()));

    private static <K, V> KeyValueStore<K, V> store(StoreBuilder<KeyValueStore<K, V>> builder) {
        return builder.withLoggingDisabled().build();
    }

    /** A processor started on the stores as they are, with a context of its own: a restarted task. */
    private MockProcessorContext<String, ActivityOutput> start() {
        return start(Duration.ofMinutes(10), Duration.ofDays(2));
    }

    /** As {@link #start()}, with another grace period and correction horizon: a restart with changed settings. */
    private MockProcessorContext<String, ActivityOutput> start(Duration grace, Duration horizon) {
        MockProcessorContext<String, ActivityOutput> context = new MockProcessorContext<>();
        context.setCurrentSystemTimeMs(WALL_CLOCK.toEpochMilli());
        for (StateStore store : List.of(hives, hours, samples, corrections)) {
            if (!store.isOpen()) {
                store.init(context.getStateStoreContext(), store);
            }
            context.addStateStore(store);
        }
        HourlyActivityProcessor processor =
                new HourlyActivityProcessor(grace, Duration.ofMinutes(1), UPDATE, horizon, InputLag.SYNCHRONOUS, "t");
        processor.init(context);
        this.processor = processor;
        return context;
    }

    private HourlyActivityProcessor processor;

    private void process(EntranceCount sample) {
        processor.process(
                new Record<>(sample.getHiveId(), sample, sample.getEventTime().toEpochMilli()));
    }

    private static void punctuate(MockProcessorContext<String, ActivityOutput> context) {
        context.scheduledPunctuators()
                .get(0)
                .getPunctuator()
                .punctuate(WALL_CLOCK.plus(UPDATE).toEpochMilli());
    }

    private static List<HourlyActivity> results(MockProcessorContext<String, ActivityOutput> context) {
        return context.forwarded().stream()
                .map(f -> f.record().value())
                .filter(out -> out instanceof ActivityOutput.Final)
                .map(out -> ((ActivityOutput.Final) out).activity())
                .toList();
    }

    @Test
    void hour_closed_before_a_restart_is_corrected_after_it_and_a_resent_sample_still_counts_once() {
        MockProcessorContext<String, ActivityOutput> before = start();
        process(sample("a", "2021-07-15T10:05:00Z", 3, 4));
        process(sample("a", "2021-07-15T11:10:00Z", 0, 0));
        assertThat(results(before))
                .singleElement()
                .satisfies(r -> assertThat(r.getPaneIndex()).isZero());

        MockProcessorContext<String, ActivityOutput> after = start();
        process(sample("a", "2021-07-15T10:05:00Z", 3, 4)); // a re-send: in the samples store already
        process(sample("a", "2021-07-15T10:20:00Z", 5, 6)); // closed hour: a correction
        process(sample("a", "2021-07-15T11:09:00Z", 1, 1)); // the open hour of 11:00
        punctuate(after);

        assertThat(results(after))
                .as("one correction of 10:00, with both samples once; 11:00 still open")
                .singleElement()
                .satisfies(r -> {
                    assertThat(r.getHour()).isEqualTo(10);
                    assertThat(List.of(r.getEntries(), r.getExits(), (long) r.getSamples()))
                            .containsExactly(8L, 10L, 2L);
                    assertThat(r.getTiming()).isEqualTo(ResultTiming.LATE);
                    assertThat(r.getPaneIndex()).isEqualTo(1);
                });
    }

    @Test
    void correction_summed_before_a_restart_is_published_once_after_it() {
        MockProcessorContext<String, ActivityOutput> before = start();
        process(sample("a", "2021-07-15T10:05:00Z", 3, 4));
        process(sample("a", "2021-07-15T11:10:00Z", 0, 0));
        process(sample("a", "2021-07-15T10:20:00Z", 5, 6)); // summed; published at the next update
        assertThat(results(before)).hasSize(1);

        MockProcessorContext<String, ActivityOutput> after = start(); // restarted before that update
        punctuate(after);
        assertThat(results(after)).singleElement().satisfies(r -> {
            assertThat(r.getEntries()).isEqualTo(8);
            assertThat(r.getPaneIndex()).isEqualTo(1);
        });

        MockProcessorContext<String, ActivityOutput> again = start();
        punctuate(again);
        assertThat(results(again)).as("published once: no longer pending").isEmpty();
    }

    @Test
    void clock_stored_once_per_hour_still_closes_the_latest_hour_by_the_quiet_rule_after_a_restart() {
        MockProcessorContext<String, ActivityOutput> before = start();
        process(sample("a", "2021-07-15T11:10:00Z", 1, 1)); // stored: a new hour
        process(sample("a", "2021-07-15T11:40:00Z", 2, 2)); // same hour, same closed hour: not stored again
        results(before);

        MockProcessorContext<String, ActivityOutput> after = start();
        long now = WALL_CLOCK.toEpochMilli();
        for (int tick = 1; tick <= 8; tick++) { // caught up, and the hive quiet, for more than the idle timeout
            after.scheduledPunctuators().get(0).getPunctuator().punctuate(now + tick * UPDATE.toMillis());
        }

        assertThat(results(after))
                .as("the hour of 11:00, with the sample the stored clock had not seen")
                .singleElement()
                .satisfies(r -> {
                    assertThat(r.getHour()).isEqualTo(11);
                    assertThat(r.getEntries()).isEqualTo(3);
                    assertThat(r.getTiming()).isEqualTo(ResultTiming.ON_TIME);
                });
    }

    @Test
    void a_horizon_raised_across_a_restart_sends_a_sample_of_a_forgotten_hour_to_the_late_topic() {
        MockProcessorContext<String, ActivityOutput> before = start();
        process(sample("a", "2021-07-15T10:05:00Z", 5, 0));
        process(sample("a", "2021-07-18T12:00:00Z", 0, 0)); // hour 10 of the 15th closed and forgotten
        assertThat(results(before))
                .singleElement()
                .satisfies(r -> assertThat(r.getEntries()).isEqualTo(5));

        MockProcessorContext<String, ActivityOutput> after = start(Duration.ofMinutes(10), Duration.ofDays(7));
        process(sample("a", "2021-07-15T10:20:00Z", 3, 0));
        punctuate(after);

        assertThat(results(after))
                .as("no second first result of 3 without the 5")
                .isEmpty();
        assertThat(after.forwarded())
                .extracting(f -> f.record().value())
                .singleElement()
                .isInstanceOf(ActivityOutput.Late.class);
    }

    @Test
    void a_grace_lowered_across_a_restart_still_publishes_the_hour_open_before_it() {
        MockProcessorContext<String, ActivityOutput> before = start(Duration.ofMinutes(60), Duration.ofDays(2));
        process(sample("a", "2021-07-15T10:05:00Z", 3, 0));
        process(sample("a", "2021-07-15T11:30:00Z", 1, 0)); // 10:00 open: 11:00 + 60 min not reached
        assertThat(results(before)).isEmpty();

        MockProcessorContext<String, ActivityOutput> after = start(Duration.ofMinutes(10), Duration.ofDays(2));
        process(sample("a", "2021-07-15T14:00:00Z", 0, 0));

        assertThat(results(after))
                .extracting(HourlyActivity::getHour, HourlyActivity::getEntries, HourlyActivity::getPaneIndex)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(10, 3L, 0), org.assertj.core.groups.Tuple.tuple(11, 1L, 0));
    }

    @Test
    void a_grace_raised_across_a_restart_corrects_an_hour_published_before_it() {
        MockProcessorContext<String, ActivityOutput> before = start();
        process(sample("a", "2021-07-15T10:05:00Z", 3, 0));
        process(sample("a", "2021-07-15T11:15:00Z", 0, 0)); // 10:00 closed under 10 minutes of grace
        assertThat(results(before))
                .singleElement()
                .satisfies(r -> assertThat(r.getPaneIndex()).isZero());

        MockProcessorContext<String, ActivityOutput> after = start(Duration.ofMinutes(60), Duration.ofDays(2));
        process(sample("a", "2021-07-15T10:50:00Z", 16, 0)); // open again under 60 minutes: still a correction
        punctuate(after);

        assertThat(results(after)).singleElement().satisfies(r -> {
            assertThat(r.getHour()).isEqualTo(10);
            assertThat(r.getEntries()).isEqualTo(19);
            assertThat(r.getTiming()).isEqualTo(ResultTiming.LATE);
            assertThat(r.getPaneIndex()).isEqualTo(1);
        });
    }
}
