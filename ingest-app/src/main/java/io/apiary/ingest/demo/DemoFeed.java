package io.apiary.ingest.demo;

import io.apiary.ingest.importer.GatewayProducer;
import io.apiary.ingest.simulator.EntranceCountSimulator;
import io.apiary.schema.EntranceCount;
import io.apiary.schema.TelemetryReading;
import java.time.Instant;
import java.util.Map;

/**
 * What the demo (and the end-to-end test) sends as gateways would: every UrBAN reading, then
 * simulated entrance-counter samples of the same hives over each hive's span of readings,
 * interleaved across hives in time order. Thread-safe (stateless).
 */
public final class DemoFeed {

    /**
     * Totals of one feed.
     *
     * @param readings telemetry readings sent
     * @param samples  entrance-counter samples sent
     * @param sums     per (hive, UTC hour) of the samples sent, their sums: the hourly results to expect;
     *                 not null, unmodifiable
     */
    public record Totals(long readings, long samples, Map<HourlyResults.Hour, HourlyResults.Sums> sums) {

        /** Copies the sums. */
        public Totals {
            sums = Map.copyOf(sums);
        }

        /** @return all records sent */
        public long total() {
            return readings + samples;
        }

        /** @return distinct (hive, UTC hour) of the samples sent: the hours with a result to expect */
        public long hours() {
            return sums.size();
        }
    }

    private DemoFeed() {}

    /**
     * The span of simulated samples of one hive: from its first reading to one interval past its last.
     *
     * @param span      the hive's readings span
     * @param simulator the simulator
     * @return [from, to) of sample end times
     */
    public static Instant[] sampleSpan(UrbanDataset.HiveSpan span, EntranceCountSimulator simulator) {
        return new Instant[] {span.first(), span.last().plus(simulator.interval())};
    }

    /**
     * Sends the whole feed and waits for Kafka's acknowledgement.
     *
     * @param producer  the gateway producer
     * @param data      the UrBAN readings
     * @param simulator the entrance-counter simulator
     * @return what was sent
     * @throws org.apache.kafka.common.KafkaException if a send failed
     */
    public static Totals send(GatewayProducer producer, UrbanDataset data, EntranceCountSimulator simulator) {
        long readings = 0;
        for (TelemetryReading reading : data.readings()) {
            producer.send(reading);
            readings++;
        }
        Map<String, UrbanDataset.HiveSpan> spans = data.spans();
        long step = simulator.interval().toMillis();
        long start = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;
        for (UrbanDataset.HiveSpan span : spans.values()) {
            Instant[] s = sampleSpan(span, simulator);
            start = Math.min(start, s[0].toEpochMilli());
            end = Math.max(end, s[1].toEpochMilli());
        }
        long samples = 0;
        Map<HourlyResults.Hour, HourlyResults.Sums> sums = new java.util.HashMap<>();
        for (long t = Math.floorDiv(start + step - 1, step) * step; t < end; t += step) {
            for (Map.Entry<String, UrbanDataset.HiveSpan> e : spans.entrySet()) {
                Instant[] s = sampleSpan(e.getValue(), simulator);
                if (t >= s[0].toEpochMilli() && t < s[1].toEpochMilli()) {
                    EntranceCount sample = simulator.sample(e.getKey(), t);
                    producer.send(sample);
                    samples++;
                    sums.merge(HourlyResults.Hour.of(sample), HourlyResults.Sums.of(sample), HourlyResults.Sums::plus);
                }
            }
        }
        producer.flush();
        return new Totals(readings, samples, sums);
    }
}
