package io.apiary.ingest.bench;

import io.apiary.ingest.metrics.MetricNames;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.cumulative.CumulativeTimer;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import io.micrometer.core.instrument.distribution.pause.PauseDetector;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * The meter registry of one benchmark run. Its write-latency timers
 * ({@value MetricNames#SINK_WRITE_LATENCY}) keep the p50 and p99 over the whole run (Micrometer's
 * percentiles otherwise decay over a 2-minute window), of the requests that no forced collection of
 * the run's live-heap probe paused: a request whose span (from its send, the recorded time's length
 * before it was recorded, to the recording) overlapped one is left out and counted by
 * {@link RunMeter#leaveOutOfLatency}. Thread-safe, as every Micrometer registry.
 */
final class RunRegistry extends SimpleMeterRegistry {

    private final RunMeter meter;

    private RunRegistry(RunMeter meter) {
        this.meter = Objects.requireNonNull(meter);
    }

    /**
     * @param meter the meter of the run, whose live-heap probes the latency leaves out, not null
     * @return a new registry for one run
     */
    static RunRegistry of(RunMeter meter) {
        RunRegistry registry = new RunRegistry(meter);
        registry.config().meterFilter(new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                if (!id.getName().equals(MetricNames.SINK_WRITE_LATENCY)) {
                    return config;
                }
                return DistributionStatisticConfig.builder()
                        .percentiles(0.5, 0.99)
                        .percentilePrecision(2)
                        .expiry(Duration.ofHours(2))
                        .bufferLength(1)
                        .build()
                        .merge(config);
            }
        });
        return registry;
    }

    /**
     * @param timer a write-latency timer of such a registry, or null
     * @param p     0.5 or 0.99
     * @return that percentile in milliseconds; NaN without a timer or that percentile
     */
    static double percentile(Timer timer, double p) {
        if (timer == null) {
            return Double.NaN;
        }
        for (ValueAtPercentile v : timer.takeSnapshot().percentileValues()) {
            if (v.percentile() == p) {
                return v.value(TimeUnit.MILLISECONDS);
            }
        }
        return Double.NaN;
    }

    @Override
    protected Timer newTimer(Meter.Id id, DistributionStatisticConfig config, PauseDetector pauseDetector) {
        if (!id.getName().equals(MetricNames.SINK_WRITE_LATENCY)) {
            return super.newTimer(id, config, pauseDetector);
        }
        return new CumulativeTimer(id, clock, config, pauseDetector, getBaseTimeUnit(), false) {
            @Override
            protected void recordNonNegative(long amount, TimeUnit unit) {
                long end = System.nanoTime();
                if (meter.leaveOutOfLatency(end - unit.toNanos(amount), end)) {
                    return;
                }
                super.recordNonNegative(amount, unit);
            }
        };
    }
}
