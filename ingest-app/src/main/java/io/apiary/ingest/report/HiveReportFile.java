package io.apiary.ingest.report;

import io.apiary.ingest.read.ActivityRow;
import io.apiary.ingest.read.HiveDataReader;
import io.apiary.ingest.read.MergedRows;
import io.apiary.ingest.read.ReadRequest;
import io.apiary.ingest.read.ReadStats;
import io.apiary.ingest.read.SeriesTable;
import io.apiary.ingest.read.TelemetryRow;
import io.apiary.ingest.read.TimeRange;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads one hive's readings and hourly activity over a range and writes them as a
 * self-contained HTML report ({@link HtmlReport}). Thread-safe (stateless).
 */
public final class HiveReportFile {

    /**
     * What was written.
     *
     * @param file      the report, absolute
     * @param readings  sensor readings in it
     * @param hours     hours of activity in it
     * @param telemetry what reading hive_telemetry_v2 (and a legacy table beside it) cost
     * @param activity  what reading hive_activity cost
     */
    public record Written(Path file, long readings, long hours, ReadStats telemetry, ReadStats activity) {

        /**
         * @return one line: rows, partitions and time of both reads, e.g. {@code 1,318 readings from 672
         *         partitions of hive_telemetry_v2 (672 requests) in 0.81 s; 168 hours from hive_activity in 0.04 s}
         */
        public String summary() {
            return String.format(
                    Locale.ROOT,
                    "%,d readings from %,d partitions of %s (%,d requests) in "
                            + "%.2f s; %,d hours from hive_activity in %.2f s",
                    readings,
                    telemetry.partitionsRead(),
                    telemetry.tablesText(),
                    telemetry.requests(),
                    telemetry.elapsed().toNanos() / 1e9,
                    hours,
                    activity.elapsed().toNanos() / 1e9);
        }
    }

    private HiveReportFile() {}

    /**
     * A file name for a hive's report: {@code hive-ID-FROM-TO.html}, every character other than
     * letters, digits, '.', '_' and '-' replaced by '_' (so no path separator survives).
     *
     * @param hive the hive id, not null
     * @param from the range's start as the user wrote it, not null
     * @param to   the range's end as the user wrote it, not null
     * @return the name, without a folder
     */
    public static String fileName(String hive, String from, String to) {
        return ("hive-" + hive + "-" + from + "-" + to).replaceAll("[^A-Za-z0-9._-]", "_") + ".html";
    }

    /**
     * Reads and writes the report; the file appears complete or not at all (written beside it,
     * then moved).
     *
     * @param reader      reads the hive's rows, not null
     * @param hive        the hive id, not blank
     * @param range       the time range, not null
     * @param file        where to write; its folder is created if missing
     * @param generatedAt the time shown as the report's creation, not null
     * @param maxReadings most readings the report may hold (all are kept in memory), at least 1
     * @param note        a note shown under the report's header (e.g. that the counts are simulated), or null
     * @param zone        the display zone of the report's times, not null
     * @return what was written
     * @throws IllegalArgumentException if {@link #checkTarget} refuses the file, or the hive has more
     *                                  than {@code maxReadings} readings in the range
     * @throws io.apiary.ingest.read.ReadException if Cassandra cannot answer
     * @throws IOException          if the file cannot be written
     */
    public static Written write(
            HiveDataReader reader,
            String hive,
            TimeRange range,
            Path file,
            Instant generatedAt,
            int maxReadings,
            String note,
            ZoneId zone)
            throws IOException {
        checkTarget(file);
        // Bees are counted per UTC hour: read whole hours, so that every hour shown has all its readings and counts.
        TimeRange hours = range.wholeHours();
        List<TelemetryRow> readings = new ArrayList<>();
        ReadStats telemetryStats;
        try (MergedRows<TelemetryRow> rows = reader.stream(ReadRequest.of(SeriesTable.TELEMETRY, hive, hours))) {
            while (rows.hasNext()) {
                if (readings.size() == maxReadings) {
                    throw new IllegalArgumentException("hive " + hive + " has more than " + maxReadings
                            + " readings between " + range.from() + " and " + range.to()
                            + ": choose a shorter range or raise --max-readings");
                }
                readings.add(rows.next());
            }
            telemetryStats = rows.stats();
        }
        List<ActivityRow> activity = new ArrayList<>();
        ReadStats activityStats;
        try (MergedRows<ActivityRow> rows = reader.stream(ReadRequest.of(SeriesTable.ACTIVITY, hive, hours))) {
            rows.forEachRemaining(activity::add);
            activityStats = rows.stats();
        }
        Path target = checkTarget(file);
        Written written = new Written(target, readings.size(), activity.size(), telemetryStats, activityStats);
        String html = HtmlReport.render(new HiveReport(
                hive,
                range,
                readings,
                activity,
                generatedAt.truncatedTo(java.time.temporal.ChronoUnit.SECONDS),
                written.summary(),
                note,
                zone));
        if (target.getParent() != null) {
            Files.createDirectories(target.getParent());
        }
        Path partial = target.resolveSibling(target.getFileName() + ".partial");
        try {
            Files.writeString(partial, html, StandardCharsets.UTF_8);
            Files.move(partial, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(partial);
        }
        return written;
    }

    /**
     * Checks where a report may go, before anything is read: a new file, or an existing regular
     * file (replaced); a symbolic link is followed to the file it names. Never a folder, a device
     * or other special file, and not below an existing non-folder.
     *
     * @param file the path as given, not null
     * @return the absolute path the report will be written to
     * @throws IllegalArgumentException naming the problem
     */
    public static Path checkTarget(Path file) {
        if (file.toString().isBlank()) {
            throw new IllegalArgumentException("the report's file name is empty");
        }
        Path target = file.toAbsolutePath().normalize();
        try {
            if (Files.exists(target)) {
                target = target.toRealPath();
                if (!Files.isRegularFile(target)) {
                    throw new IllegalArgumentException(
                            target + " exists and is not a regular file: choose a file name");
                }
                if (!Files.isWritable(target)) {
                    throw new IllegalArgumentException(target + " cannot be written");
                }
                return target;
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot check " + file + ": " + e.getMessage(), e);
        }
        for (Path folder = target.getParent(); folder != null; folder = folder.getParent()) {
            if (Files.exists(folder)) {
                if (!Files.isDirectory(folder)) {
                    throw new IllegalArgumentException(folder + " is not a folder, so " + target + " cannot be made");
                }
                if (!Files.isWritable(folder)) {
                    throw new IllegalArgumentException("cannot write in " + folder);
                }
                break;
            }
        }
        return target;
    }
}
