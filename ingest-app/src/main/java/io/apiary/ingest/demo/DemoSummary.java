package io.apiary.ingest.demo;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.deadletter.DeadLetterHeaders;
import io.apiary.ingest.metrics.MetricNames;
import io.apiary.ingest.pipeline.Pipeline;
import io.apiary.ingest.tables.TableNames;
import io.apiary.ingest.topics.Topics;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.Map;

/** Prints the demo's summary from what Kafka and Cassandra now hold. Not thread-safe. */
final class DemoSummary {

    private final PrintWriter out;
    private final IngestConfig config;

    DemoSummary(PrintWriter out, IngestConfig config) {
        this.out = out;
        this.config = config;
    }

    /**
     * Prints the summary.
     *
     * @return whether every hour's newest result equals the samples sent
     */
    boolean print(
            UrbanDataset data,
            DemoFeed.Totals sent,
            DemoProgress.Result progress,
            Duration ingest,
            Pipeline pipeline,
            String hive,
            LocalDate day) {
        Topics topics = config.topics();
        String ks = config.getString(IngestConfig.CASSANDRA_KEYSPACE);
        Map<String, Long> deadLetteredByReason;
        long late;
        try (LagProbe probe = new LagProbe(config.kafkaClientSettings())) {
            deadLetteredByReason = probe.countByHeader(topics.deadLetter(), DeadLetterHeaders.REASON);
            late = probe.countRecords(topics.activityLate());
        }
        HourlyResults hourly = HourlyResults.read(config, Duration.ofMinutes(2));
        java.util.List<HourlyResults.Hour> inexact = hourly.inexactHours(sent.sums());
        long deadLettered = deadLetteredByReason.values().stream()
                .mapToLong(Long::longValue)
                .sum();
        double duplicates = io.micrometer.core.instrument.Metrics.globalRegistry
                .find(MetricNames.TOPOLOGY_DUPLICATE_RECORDS)
                .counters()
                .stream()
                .mapToDouble(io.micrometer.core.instrument.Counter::count)
                .sum();
        Map<String, Long> rowsInTable = new HashMap<>();
        try (CqlSession session = CassandraSessions.open(config)) {
            for (String table : Demo.tables()) {
                rowsInTable.put(table, countRows(session, ks + "." + table));
            }
            out.println();
            out.println("Summary");
            out.printf(
                    "  records in              %,12d  (%,d telemetry readings, %,d entrance-counter samples)%n",
                    sent.total(), sent.readings(), sent.samples());
            out.printf(
                    "  dead-lettered records   %,12d  (topic %s)%s%n",
                    deadLettered,
                    topics.deadLetter(),
                    deadLetteredByReason.isEmpty() ? "" : " by reason: " + deadLetteredByReason);
            out.printf(
                    "  late samples            %,12d  (topic %s: samples that came later than the correction horizon,"
                            + " %s of the hive's own event time after their hour closed, in no result); re-sent samples counted once: %,.0f%n",
                    late,
                    topics.activityLate(),
                    io.apiary.ingest.validation.TimeLimits.describe(
                            Duration.ofMillis(config.getLong(IngestConfig.ACTIVITY_CORRECTION_HORIZON_MS))),
                    duplicates);
            out.printf(
                    "  %-22s  %12s rows in Cassandra; the file holds %,d distinct (hive, sensor, time) readings%n",
                    TableNames.HIVE_TELEMETRY,
                    shown(rowsInTable.get(TableNames.HIVE_TELEMETRY)),
                    data.distinctReadings());
            out.printf(
                    "  %-22s  %,12d row writes acknowledged: the %,d duplicate readings were upserted onto the "
                            + "same rows (%,d of them with another value than the first: one whole reading is kept per key)%n",
                    "",
                    pipeline.sink().rowsWritten(TableNames.HIVE_TELEMETRY),
                    sent.readings() - data.distinctReadings(),
                    data.conflictingReadings());
            out.printf(
                    "  hive_activity           %12s rows in Cassandra (hours); %,d row writes acknowledged (an "
                            + "hour is upserted as its sums grow)%n",
                    shown(rowsInTable.get("hive_activity")), pipeline.sink().rowsWritten("hive_activity"));
            out.printf(
                    "  hourly results          %,12d  on %s for %,d (hive, hour) with samples: %,d corrections of %,d"
                            + " hours (a correction replaces the hour's earlier result)%n",
                    hourly.results().size(),
                    topics.hourlyActivity(),
                    sent.hours(),
                    hourly.corrections(),
                    hourly.correctedHours());
            out.printf(
                    "  exact hours             %,12d  of %,d: the newest result of each equals the samples sent%n",
                    sent.hours()
                            - inexact.stream()
                                    .filter(h -> sent.sums().containsKey(h))
                                    .count(),
                    sent.hours());
            out.printf(
                    "  ingest                  %,.1f s from the first record sent until everything was written; "
                            + "sink %,.0f rows/s on average, %,.0f rows/s at peak (2 s ticks)%n",
                    Demo.seconds(ingest), progress.averageRowsPerSecond(), progress.peakRowsPerSecond());
            printHourly(session, ks, hive, day);
        }
        printWarnings(late, hourly, inexact);
        return inexact.isEmpty();
    }

    /** Says plainly what is not as it should be: late samples, corrections, hours that are not exact. */
    private void printWarnings(long late, HourlyResults hourly, java.util.List<HourlyResults.Hour> inexact) {
        if (late > 0) {
            out.printf(
                    "%n  NOTE: %,d samples came after their hour's correction horizon: they are on %s and counted in"
                            + " no hourly result, so those hours are short.%n",
                    late, config.topics().activityLate());
        }
        if (hourly.corrections() > 0) {
            out.printf(
                    "%n  NOTE: %,d hours were published before all their samples had arrived and were then corrected"
                            + " (%,d corrections), e.g. %s; read the newest result of each hour (the highest"
                            + " pane_index).%n",
                    hourly.correctedHours(), hourly.corrections(), String.join(", ", hourly.correctedExamples(5)));
        }
        if (!inexact.isEmpty()) {
            out.printf(
                    "%n  NOT EXACT: %,d hours' newest results differ from the samples sent, e.g. %s%n",
                    inexact.size(), inexact.subList(0, Math.min(5, inexact.size())));
        }
    }

    /**
     * A whole-table {@code COUNT(*)} (a scan: fine for the demo's small tables, not for production),
     * tried three times: on a heavily loaded 2-core machine it has failed once with a
     * ReadFailureException, and a display-only count must not cost the whole run.
     *
     * @return the rows, or -1 when every try failed (the reason is printed)
     */
    private long countRows(CqlSession session, String table) {
        RuntimeException last = null;
        for (int attempt = 1; attempt <= 3; attempt++) {
            try {
                Row row = session.execute(SimpleStatement.newInstance("SELECT COUNT(*) FROM " + table)
                                .setTimeout(Duration.ofSeconds(120)))
                        .one();
                return row == null ? 0 : row.getLong(0);
            } catch (com.datastax.oss.driver.api.core.DriverException e) {
                last = e;
                try {
                    Thread.sleep(2_000L * attempt);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        out.printf("  (counting the rows of %s failed three times: %s)%n", table, last);
        return -1;
    }

    private static String shown(long count) {
        return count < 0 ? "unknown" : String.format(java.util.Locale.ROOT, "%,d", count);
    }

    private void printHourly(CqlSession session, String ks, String hive, LocalDate day) {
        ResultSet rs = session.execute(SimpleStatement.newInstance(
                "SELECT hour, bees_in, bees_out, samples FROM " + ks
                        + ".hive_activity WHERE hive_id = ? AND day = ? ORDER BY day ASC, hour ASC",
                hive,
                day));
        out.printf("%n  Hourly activity of hive %s on %s (UTC hours, from hive_activity):%n", hive, day);
        out.println("    hour   entries     exits  samples");
        long entries = 0;
        long exits = 0;
        int hours = 0;
        for (Row row : rs) {
            out.printf(
                    "    %02d:00 %9d %9d %8d%n",
                    row.getInt("hour"), row.getLong("bees_in"), row.getLong("bees_out"), row.getInt("samples"));
            entries += row.getLong("bees_in");
            exits += row.getLong("bees_out");
            hours++;
        }
        if (hours == 0) {
            out.println("    (no rows: that hive has no samples on that day)");
        } else {
            out.printf("    total %9d %9d  (%d hours)%n", entries, exits, hours);
        }
    }
}
