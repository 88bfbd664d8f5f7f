package io.apiary.ingest.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import io.apiary.ingest.cli.IngestApp;
import io.apiary.ingest.config.ConfigLoader;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.it.ItEndpoints;
import io.apiary.ingest.it.SharedStack;
import io.apiary.ingest.topology.HourlyActivityProcessor;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The state benchmark on the shared stack, small: the topology runs as a child process, holds
 * every sample of a few hundred hives' open hour, is killed with SIGKILL and restores it all; the
 * figures are there, positive and consistent with one another. Its session timeout is Kafka's
 * least (6 s) so that the restarted topology need not wait the default 45 s for the killed one's
 * membership to expire; the Kafka meters Micrometer adds within a minute of the start still take
 * most of its time.
 */
class StateBenchIT {

    private static final int HIVES = 300;

    @TempDir
    Path dir;

    @Test
    void holds_every_sample_of_the_open_hour_restores_it_after_a_sigkill_and_reports_consistent_figures()
            throws Exception {
        ItEndpoints stack = SharedStack.get();
        Map<String, Object> settings = stack.clientSettings();
        settings.put(IngestConfig.TOPIC_PARTITIONS, 2);
        settings.put("streams.session.timeout.ms", 6_000);
        IngestConfig base = ConfigLoader.load(null, Map.of(), settings);
        StringWriter progress = new StringWriter();

        StateFigures f = new StateBench(
                        base,
                        new StateBench.Options(
                                HIVES, Duration.ofSeconds(60), Duration.ofHours(1), 256, Duration.ofMinutes(3)),
                        IngestApp.class.getName(),
                        dir,
                        new PrintWriter(progress))
                .run();
        StringWriter report = new StringWriter();
        new StateReport(f, Map.of()).print(new PrintWriter(report));
        System.out.println(progress);
        System.out.println(report);

        assertThat(f.samplesSent()).isEqualTo(HIVES * 60L).isEqualTo(f.samples());
        assertThat(f.hoursClosed()).as("the hour stayed open").isZero();
        assertThat(f.lateSamples()).isZero();
        assertThat(f.partitions()).isEqualTo(2);
        assertThat(f.storeType()).isEqualTo("rocksdb");
        // the heap: sampled, then live after a full collection in the child (jcmd beside the test's JDK)
        assertThat(f.heapPeakBytes()).isPositive().isLessThanOrEqualTo(f.heapMaxBytes());
        assertThat(f.liveHeapStartBytes()).isPositive();
        assertThat(f.liveHeapBytes()).isPositive().isLessThanOrEqualTo(f.heapPeakBytes());
        // RocksDB: one shared cache of the configured capacity, the memtables charged to it
        assertThat(f.rocksDbCacheCapacityBytes()).isEqualTo(f.rocksDbBoundBytes());
        assertThat(f.memtablePeakBytes()).isPositive();
        assertThat(f.rocksDbCachePeakBytes()).isGreaterThanOrEqualTo(f.memtablePeakBytes());
        assertThat(f.rocksDbWithinBound()).isTrue();
        if (f.residentPeakBytes() >= 0) { // Linux
            assertThat(f.residentPeakBytes()).isGreaterThan(f.liveHeapBytes());
        }
        // every sample's identity is in a store and in its changelog
        StateFigures.Store seen = f.store(HourlyActivityProcessor.SAMPLES_STORE);
        StateFigures.Store sums = f.store(HourlyActivityProcessor.HOURS_STORE);
        assertThat(seen.keys()).as("RocksDB's estimate").isCloseTo(f.samples(), withinPercentage(5));
        assertThat(seen.changelogRecords()).isGreaterThanOrEqualTo(f.samples());
        assertThat(sums.keys()).isGreaterThanOrEqualTo(f.openHiveHours());
        assertThat(sums.changelogRecords()).isGreaterThanOrEqualTo(f.openHiveHours());
        assertThat(seen.changelogBytes()).isGreaterThan(sums.changelogBytes()).isPositive();
        StateFigures.Store hives = f.store(HourlyActivityProcessor.HIVES_STORE);
        assertThat(hives.changelogRecords()).as("a close time per hive").isGreaterThanOrEqualTo(f.hives());
        assertThat(f.changelogBytes()).isGreaterThanOrEqualTo(seen.changelogBytes() + sums.changelogBytes());
        // the restore read the changelogs back: every record, markers of transactions aside
        assertThat(f.restoredPartitions()).as("4 stores, 2 partitions").isEqualTo(4 * 2);
        assertThat(f.restoredRecords())
                .isGreaterThanOrEqualTo(f.samples() + f.openHiveHours())
                .isLessThanOrEqualTo(f.changelogRecords());
        assertThat(f.restoreSeconds()).isPositive().isLessThan(f.launchToRunningSeconds());
        assertThat(f.launchToRunningSeconds()).isPositive().isLessThanOrEqualTo(f.killToRunningSeconds());
        // on disk: the flushed stores hold at least the samples' identities' bytes of keys
        assertThat(f.stateFolderBytes()).isPositive();
        assertThat(seen.folderBytesStopped()).isGreaterThan(f.samples());
        assertThat(f.stateFolderStoppedBytes()).isGreaterThan(seen.folderBytesStopped());
        assertThat(report.toString()).contains("RocksDB memory within its bound");
        assertThat(progress.toString()).doesNotContain("could not delete");
        try (Admin admin = Admin.create(base.kafkaClientSettings())) {
            assertThat(admin.listTopics().names().get()).noneMatch(name -> name.startsWith("apiary-bench-state-"));
        }
    }
}
