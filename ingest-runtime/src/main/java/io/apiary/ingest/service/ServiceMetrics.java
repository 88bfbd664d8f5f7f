package io.apiary.ingest.service;

import io.apiary.ingest.metrics.MetricNames;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.ArrayList;
import java.util.List;

/**
 * The meter registry of {@code run}: Prometheus, with the JVM's meters (memory, GC, threads,
 * class loading, CPU, uptime, file descriptors) and the tag {@code component} on every meter. It
 * is also added to Micrometer's global registry, where the dead letter handlers Kafka Streams
 * instantiates count. Not thread-safe to create; the registry itself is thread-safe.
 */
public final class ServiceMetrics implements AutoCloseable {

    private final PrometheusMeterRegistry registry;
    private final List<AutoCloseable> binders = new ArrayList<>();

    /**
     * @param component {@code all}, {@code topology} or {@code sink}: the value of the
     *                  {@code component} tag, not null
     */
    public ServiceMetrics(String component) {
        registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        registry.config()
                .commonTags(MetricNames.TAG_APPLICATION, "apiary-ingest", MetricNames.TAG_COMPONENT, component);
        new ClassLoaderMetrics().bindTo(registry);
        new JvmMemoryMetrics().bindTo(registry);
        JvmGcMetrics gc = new JvmGcMetrics();
        gc.bindTo(registry);
        binders.add(gc);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
        Metrics.addRegistry(registry);
    }

    /** @return the registry, thread-safe */
    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** Stops the GC listener and removes the registry from the global one. Idempotent. */
    @Override
    public void close() {
        for (AutoCloseable binder : binders) {
            try {
                binder.close();
            } catch (Exception e) {
                // nothing to recover: the process is stopping
            }
        }
        binders.clear();
        Metrics.removeRegistry(registry);
    }
}
