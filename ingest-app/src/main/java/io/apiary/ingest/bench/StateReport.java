package io.apiary.ingest.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.apiary.ingest.topology.HourlyActivityProcessor;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The state benchmark's figures as a person reads them (a table: total, per open hive-hour, per
 * sample held; then the restore) and as a JSON file. Every figure comes from {@link StateFigures};
 * this class only divides and formats. Immutable and thread-safe.
 */
public final class StateReport {

    private static final double MIB = 1024.0 * 1024.0;

    private final StateFigures figures;
    private final Map<String, Object> context;

    /**
     * @param figures what the run measured, not null
     * @param context where and when it ran (machine, Java, settings), written as the JSON's {@code context}, not null
     */
    public StateReport(StateFigures figures, Map<String, Object> context) {
        this.figures = Objects.requireNonNull(figures);
        this.context = Map.copyOf(context);
    }

    /** @return the figures */
    public StateFigures figures() {
        return figures;
    }

    /**
     * Prints the workload, a table of the figures and the restore.
     *
     * @param out where to print, not null
     */
    public void print(PrintWriter out) {
        StateFigures f = figures;
        out.printf(
                Locale.ROOT,
                "State under %,d hives: one hour of entrance-counter samples, %,d per hive (%,d in all), grace %s; "
                        + "%s stores in %d tasks, heap %s, topology.rocksdb.memory.bytes %s%n",
                f.hives(),
                f.samplesPerHive(),
                f.samples(),
                duration(f.grace()),
                f.storeType(),
                f.partitions(),
                size(f.heapMaxBytes()),
                size(f.rocksDbBoundBytes()));
        out.printf(
                Locale.ROOT,
                "Fed %,d samples in %s s; the topology had committed them all %s s later (%s samples/s)%n%n",
                f.samplesSent(),
                BenchReport.format(f.feedSeconds(), 1),
                BenchReport.format(f.processSeconds(), 1),
                BenchReport.format(f.samplesPerSecond(), 0));
        out.println("| figure | total | per open hive-hour | per sample held |");
        out.println("|---|---|---|---|");
        for (Row row : rows()) {
            out.printf(
                    Locale.ROOT,
                    "| %s | %s | %s | %s |%n",
                    row.figure(),
                    row.total(),
                    bytes(f.perHiveHour(row.bytes())),
                    bytes(f.perSample(row.bytes())));
        }
        out.println();
        out.printf(
                Locale.ROOT,
                "RocksDB memory %s its bound (%s of %s, the cache's capacity %s)%n",
                f.rocksDbBytes() < 0 ? "not measured against" : f.rocksDbWithinBound() ? "within" : "ABOVE",
                size(f.rocksDbBytes()),
                size(f.rocksDbBoundBytes()),
                size(f.rocksDbCacheCapacityBytes()));
        StateFigures.Store hives = f.store(HourlyActivityProcessor.HIVES_STORE);
        StateFigures.Store sums = f.store(HourlyActivityProcessor.HOURS_STORE);
        StateFigures.Store seen = f.store(HourlyActivityProcessor.SAMPLES_STORE);
        if (hives != null && sums != null && seen != null) {
            long perHourFolder = sums.folderBytesStopped() < 0 || seen.folderBytesStopped() < 0
                    ? -1
                    : sums.folderBytesStopped() + seen.folderBytesStopped();
            out.printf(
                    Locale.ROOT,
                    "Per hive (%s): %s of changelog, %s of state folder after a clean stop. Per open hour (%s and"
                            + " %s: its sums and its samples' identities): %s of changelog, %s of state folder after a"
                            + " clean stop; a closed hour costs as much until the correction horizon has passed%n",
                    hives.name(),
                    bytes(f.perHiveHour(hives.changelogBytes())),
                    bytes(f.perHiveHour(hives.folderBytesStopped())),
                    sums.name(),
                    seen.name(),
                    bytes(f.perHiveHour(sums.changelogBytes() + seen.changelogBytes())),
                    bytes(f.perHiveHour(perHourFolder)));
            if (sums.keys() >= 0) {
                out.printf(
                        Locale.ROOT,
                        "RocksDB's key estimates at the peak (an update still in a memtable counts as a key): %,d in"
                                + " the hours' store (%,d open hours), %,d in the sample identities' store (%,d"
                                + " samples), %,d in the hives' store (%,d hives)%n",
                        sums.keys(),
                        f.openHiveHours(),
                        seen.keys(),
                        f.samples(),
                        hives.keys(),
                        f.hives());
            }
        }
        out.printf(
                Locale.ROOT,
                "Restore after a SIGKILL at the peak: %,d records of %d changelog partitions in %s s (%s records/s); "
                        + "RUNNING %s s after the kill (%s s after the new JVM's launch)%n",
                f.restoredRecords(),
                f.restoredPartitions(),
                BenchReport.format(f.restoreSeconds(), 1),
                BenchReport.format(f.restoredPerSecond(), 0),
                BenchReport.format(f.killToRunningSeconds(), 1),
                BenchReport.format(f.launchToRunningSeconds(), 1));
        out.printf(
                Locale.ROOT,
                "Hours closed %,d, late samples %,d (both 0 when the hour stayed open throughout)%n",
                f.hoursClosed(),
                f.lateSamples());
        out.flush();
    }

    /**
     * A line of the table.
     *
     * @param figure what it is
     * @param total  its total as printed
     * @param bytes  the total in bytes, divided per hive-hour and per sample; -1 for no division
     */
    record Row(String figure, String total, long bytes) {}

    /** @return the table's lines, in order */
    List<Row> rows() {
        StateFigures f = figures;
        List<Row> rows = new ArrayList<>();
        rows.add(new Row(
                "heap used, peak (sampled every second, garbage included)",
                size(f.heapPeakBytes()) + " of " + size(f.heapMaxBytes()),
                f.heapPeakBytes()));
        rows.add(new Row(
                "live heap at the peak (after a full collection)",
                size(f.liveHeapBytes()) + " (" + size(f.liveHeapStartBytes()) + " before the feed)",
                f.liveHeapBytes()));
        rows.add(new Row("live heap growth", size(f.liveHeapGrowthBytes()), f.liveHeapGrowthBytes()));
        rows.add(new Row("resident set, peak", size(f.residentPeakBytes()), f.residentPeakBytes()));
        rows.add(new Row(
                "RocksDB memory, peak (block cache with memtables, index and filters; table readers)",
                size(f.rocksDbBytes()) + " of " + size(f.rocksDbBoundBytes()),
                f.rocksDbBytes()));
        rows.add(new Row("RocksDB memtables, peak", size(f.memtablePeakBytes()), f.memtablePeakBytes()));
        for (StateFigures.Store s : f.stores()) {
            rows.add(new Row(
                    "changelog " + s.name(),
                    size(s.changelogBytes()) + String.format(Locale.ROOT, " (%,d offsets)", s.changelogRecords()),
                    s.changelogBytes()));
        }
        rows.add(new Row(
                "changelogs, all (one copy)",
                size(f.changelogBytes()) + String.format(Locale.ROOT, " (%,d offsets)", f.changelogRecords()),
                f.changelogBytes()));
        for (StateFigures.Store s : f.stores()) {
            rows.add(new Row("state folder at the peak, " + s.name(), size(s.folderBytes()), s.folderBytes()));
        }
        rows.add(new Row("state folder at the peak, all", size(f.stateFolderBytes()), f.stateFolderBytes()));
        rows.add(new Row(
                "state folder after the restore",
                size(f.stateFolderAfterRestoreBytes()),
                f.stateFolderAfterRestoreBytes()));
        for (StateFigures.Store s : f.stores()) {
            rows.add(new Row(
                    "state folder after a clean stop (memtables flushed), " + s.name(),
                    size(s.folderBytesStopped()),
                    s.folderBytesStopped()));
        }
        rows.add(new Row(
                "state folder after a clean stop, all",
                size(f.stateFolderStoppedBytes()),
                f.stateFolderStoppedBytes()));
        return rows;
    }

    /**
     * Writes the context, the figures and the per hive-hour and per sample arithmetic as JSON
     * (bytes as numbers, -1 or null where not measured).
     *
     * @param file the file, replaced if it exists
     * @throws IOException if it cannot be written
     */
    public void write(Path file) throws IOException {
        StateFigures f = figures;
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("context", context);
        json.put("figures", toMap(f));
        Map<String, Object> derived = new LinkedHashMap<>();
        derived.put("open_hive_hours", f.openHiveHours());
        derived.put("samples", f.samples());
        derived.put("rocksdb_bytes", f.rocksDbBytes());
        derived.put("rocksdb_within_bound", f.rocksDbWithinBound());
        derived.put("live_heap_growth_bytes", f.liveHeapGrowthBytes());
        derived.put("changelog_bytes", f.changelogBytes());
        derived.put("changelog_records", f.changelogRecords());
        derived.put("samples_per_second", BenchResult.figure(f.samplesPerSecond()));
        derived.put("restored_records_per_second", BenchResult.figure(f.restoredPerSecond()));
        List<Map<String, Object>> perUnit = new ArrayList<>();
        for (Row row : rows()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("figure", row.figure());
            m.put("bytes", row.bytes());
            m.put("per_open_hive_hour", BenchResult.figure(f.perHiveHour(row.bytes())));
            m.put("per_sample", BenchResult.figure(f.perSample(row.bytes())));
            perUnit.add(m);
        }
        derived.put("per_unit", perUnit);
        json.put("derived", derived);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), json);
    }

    /**
     * @return a record's components by name, in order: a duration as milliseconds (its name with
     *     {@code Ms} added), a non-finite double as null, records within it (and lists of them) alike
     */
    static Map<String, Object> toMap(Record record) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (RecordComponent c : record.getClass().getRecordComponents()) {
            Object value;
            try {
                value = c.getAccessor().invoke(record);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot read " + c.getName() + " of " + record, e);
            }
            if (value instanceof Duration d) {
                map.put(c.getName() + "Ms", d.toMillis());
            } else if (value instanceof Double d) {
                map.put(c.getName(), BenchResult.figure(d));
            } else if (value instanceof Record r) {
                map.put(c.getName(), toMap(r));
            } else if (value instanceof List<?> list) {
                map.put(
                        c.getName(),
                        list.stream()
                                .map(v -> v instanceof Record r ? toMap(r) : v)
                                .toList());
            } else {
                map.put(c.getName(), value);
            }
        }
        return map;
    }

    /**
     * @return bytes with one decimal, as MiB from 1 MiB up, else as KiB; {@code n/a} when negative
     *     (not measured)
     */
    static String size(long bytes) {
        if (bytes < 0) {
            return "n/a";
        }
        return bytes >= MIB
                ? String.format(Locale.ROOT, "%,.1f MiB", bytes / MIB)
                : String.format(Locale.ROOT, "%,.1f KiB", bytes / 1024.0);
    }

    /** @return a duration as minutes, or seconds below a minute */
    static String duration(Duration d) {
        return d.toSeconds() % 60 == 0 && !d.isZero()
                ? d.toMinutes() + " min"
                : BenchReport.format(d.toMillis() / 1000.0, d.toMillis() % 1000 == 0 ? 0 : 3) + " s";
    }

    /** @return a per-unit figure: bytes with one decimal below 100, whole above; {@code n/a} when NaN */
    static String bytes(double perUnit) {
        return Double.isFinite(perUnit) ? BenchReport.format(perUnit, perUnit < 100 ? 1 : 0) + " B" : "n/a";
    }
}
