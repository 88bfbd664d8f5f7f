package io.apiary.ingest.tablecopy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.apiary.ingest.bench.RunMeter;
import io.apiary.ingest.bucket.DayBucket;
import io.apiary.ingest.bucket.ShardStrategy;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.cassandra.SchemaApplier;
import io.apiary.ingest.config.ConfigLoader;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.identity.Identifiers;
import io.apiary.ingest.it.AppProcess;
import io.apiary.ingest.it.ItEndpoints;
import io.apiary.ingest.it.SharedStack;
import io.apiary.ingest.tables.CqlScript;
import io.apiary.ingest.tables.TableNames;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code table copy} and {@code table verify} as child processes on the shared real stack: 200,000
 * readings of the legacy layout, written with CQL with a write time and TTL of their own, copied
 * into hive_telemetry_v2 by a copy killed with SIGKILL partway and started again, and into a
 * second keyspace's hive_telemetry_v2 at 48 shards instead of 96 by two workers at once (child
 * processes); the verification (run in this JVM, by two workers for the second copy) finds no
 * difference, every row's values, write time and TTL are checked against
 * the source, and a changed, a deleted and an added target row are named. Prints the copy's
 * rates and Cassandra's CPU per row on {@code TABLE-COPY-IT} lines.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TableCopyIT {

    private static final String KEYSPACE = "table_copy_it";
    private static final String KEYSPACE_48 = "table_copy_it_48";
    private static final int ROWS = 200_000;
    private static final String SOURCE = KEYSPACE + "." + TableNames.LEGACY_HIVE_TELEMETRY;
    private static final String TARGET = KEYSPACE + "." + TableNames.HIVE_TELEMETRY;
    private static final String TARGET_48 = KEYSPACE_48 + "." + TableNames.HIVE_TELEMETRY;
    private static final Pattern BEFORE = Pattern.compile("\\(([0-9,]+) before this run\\)");

    private static ItEndpoints stack;
    private static Path config;
    private static Map<String, SourceRow> source;
    private static Instant sourceRead;

    @TempDir
    static Path dir;

    /** A source row as the test reads it: values, every cell's write time and TTL. */
    record SourceRow(String gateway, double value, String unit, long maxWriteTime, int latestTtl) {}

    @BeforeAll
    static void writeTheLegacyTable() throws Exception {
        stack = SharedStack.get();
        config = dir.resolve("it.properties");
        StringBuilder settings = new StringBuilder();
        stack.clientSettings()
                .forEach((key, value) ->
                        settings.append(key).append('=').append(value).append('\n'));
        settings.append(IngestConfig.CASSANDRA_KEYSPACE)
                .append('=')
                .append(KEYSPACE)
                .append('\n');
        Files.writeString(config, settings);
        try (CqlSession session = CassandraSessions.open(config(Map.of()))) {
            for (String keyspace : List.of(KEYSPACE, KEYSPACE_48)) {
                session.execute(SimpleStatement.newInstance("DROP KEYSPACE IF EXISTS " + keyspace)
                        .setTimeout(Duration.ofMinutes(1)));
                SchemaApplier.apply(
                        session,
                        SchemaApplier.load(null, keyspace, SchemaApplier.DEV_REPLICATION).stream()
                                .filter(s ->
                                        s.name().startsWith("000") || s.name().contains(TableNames.HIVE_TELEMETRY))
                                .toList());
            }
            List<CqlScript> legacy =
                    SchemaApplier.load(Path.of("..", "cql", "legacy"), KEYSPACE, SchemaApplier.DEV_REPLICATION);
            SchemaApplier.apply(
                    session,
                    legacy.stream()
                            .filter(s -> s.name().contains("hive_telemetry"))
                            .toList());
            long start = System.nanoTime();
            int rewritten = LegacyReadings.write(session, SOURCE, ROWS, 17);
            System.out.printf(
                    "TABLE-COPY-IT wrote %,d legacy rows (%,d with a later write of their value) in %.1f s%n",
                    ROWS, rewritten, (System.nanoTime() - start) / 1e9);
            sourceRead = Instant.now();
            source = readSource(session);
        }
        assertThat(source).hasSize(ROWS);
    }

    @Test
    @Order(1)
    void should_copy_every_row_with_its_write_time_and_ttl_when_killed_partway_and_started_again() throws Exception {
        Instant started = Instant.now();
        String[] copy = {
            "table",
            "copy",
            "--from",
            SOURCE,
            "--to",
            TARGET,
            "--splits",
            "256",
            "--progress-seconds",
            "1",
            "--config",
            config.toString()
        };
        try (AppProcess first =
                AppProcess.command(dir.resolve("copy-1.log"), concat(copy, "--max-rows-per-second", "20000"))) {
            try (CqlSession session = CassandraSessions.open(config(Map.of()))) {
                await().atMost(Duration.ofMinutes(2))
                        .pollInterval(Duration.ofMillis(200))
                        .until(() -> !first.isAlive() || doneRanges(session) >= 20);
            }
            assertThat(first.isAlive())
                    .as("the first copy still runs when killed: %s", first.log())
                    .isTrue();
        } // SIGKILL
        AppProcess second = AppProcess.command(dir.resolve("copy-2.log"), copy);
        assertThat(second.waitFor(Duration.ofMinutes(3))).isTrue();
        assertThat(second.exitValue()).as(second.log()).isZero();
        assertThat(second.log())
                .as("rows the first run wrote are the copy's own, not readings the target held")
                .doesNotContain("legacy readings skipped");
        Matcher before = BEFORE.matcher(second.log());
        assertThat(before.find()).as(second.log()).isTrue();
        int resumed = Integer.parseInt(before.group(1).replace(",", ""));
        assertThat(resumed).as("ranges done before the restart").isBetween(20, 255);
        System.out.println("TABLE-COPY-IT resumed after SIGKILL with " + resumed + " of 256 ranges done; "
                + summary(second.log()));

        Run verify = Run.of("table", "verify", "--from", SOURCE, "--to", TARGET, "--config", config.toString());
        assertThat(verify.exit()).as(verify.output()).isZero();
        assertThat(verify.output()).contains("200,000 source rows, 200,000 target rows; 0 differences");

        try (CqlSession session = CassandraSessions.open(config(Map.of()))) {
            checkEveryRow(session, TARGET, 96, started);
        }
    }

    @Test
    @Order(2)
    void should_rebucket_every_row_into_a_changed_shard_count_when_two_workers_copy_at_once() throws Exception {
        Instant started = Instant.now();
        List<AppProcess> workers = new ArrayList<>();
        long startNanos = System.nanoTime();
        double cassandraCpu = cassandraCpuSeconds();
        for (int worker = 0; worker < 2; worker++) {
            workers.add(AppProcess.command(
                    dir.resolve("copy-48-" + worker + ".log"),
                    "table",
                    "copy",
                    "--from",
                    SOURCE,
                    "--to",
                    TARGET_48,
                    "--workers",
                    "2",
                    "--worker-index",
                    Integer.toString(worker),
                    "--splits",
                    "256",
                    "--set",
                    "telemetry.shards=48",
                    "--config",
                    config.toString()));
        }
        for (AppProcess worker : workers) {
            assertThat(worker.waitFor(Duration.ofMinutes(3))).isTrue();
            assertThat(worker.exitValue()).as(worker.log()).isZero();
        }
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        cassandraCpu = cassandraCpuSeconds() - cassandraCpu;
        System.out.printf(
                "TABLE-COPY-IT two workers at once: %,d rows in %.1f s from the first start to the last "
                        + "exit (%,.0f rows/s), Cassandra CPU %.1f s (%.1f us/row); worker 0: %s; worker 1: %s%n",
                ROWS,
                seconds,
                ROWS / seconds,
                cassandraCpu,
                cassandraCpu * 1e6 / ROWS,
                summary(workers.get(0).log()),
                summary(workers.get(1).log()));

        List<java.util.concurrent.CompletableFuture<Run>> verifiers = new ArrayList<>();
        for (int worker = 0; worker < 2; worker++) {
            String index = Integer.toString(worker);
            verifiers.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> Run.of(
                    "table",
                    "verify",
                    "--from",
                    SOURCE,
                    "--to",
                    TARGET_48,
                    "--workers",
                    "2",
                    "--worker-index",
                    index,
                    "--set",
                    "telemetry.shards=48",
                    "--config",
                    config.toString())));
        }
        long sourceRows = 0;
        for (java.util.concurrent.CompletableFuture<Run> verifier : verifiers) {
            Run run = verifier.get(3, java.util.concurrent.TimeUnit.MINUTES);
            assertThat(run.exit()).as(run.output()).isZero();
            assertThat(run.output()).contains("; 0 differences");
            Matcher rows = Pattern.compile(" s: ([0-9,]+) source rows, ").matcher(run.output());
            assertThat(rows.find()).as(run.output()).isTrue();
            sourceRows += Long.parseLong(rows.group(1).replace(",", ""));
        }
        assertThat(sourceRows).as("source rows the two verifiers compared").isEqualTo(ROWS);

        try (CqlSession session = CassandraSessions.open(config(Map.of()))) {
            checkEveryRow(session, TARGET_48, 48, started);
        }
    }

    @Test
    @Order(3)
    void should_name_a_changed_a_deleted_and_an_added_row_and_exit_1_when_the_target_differs() throws Exception {
        try (CqlSession session = CassandraSessions.open(config(Map.of()))) {
            List<Row> rows = session.execute("SELECT hive_id, day, shard, sensor_type, reading_time, WRITETIME(value) "
                            + "FROM " + TARGET_48 + " LIMIT 3")
                    .all();
            Row changed = rows.get(0);
            Row deleted = rows.get(1);
            Row byHand = rows.get(2);
            session.execute(SimpleStatement.newInstance(
                    "UPDATE " + TARGET_48 + " USING TIMESTAMP ? SET value = 12345.5 "
                            + "WHERE hive_id = ? AND day = ? AND shard = ? AND sensor_type = ? AND sensor_id = 'default' AND "
                            + "reading_time = ?",
                    changed.getLong(5),
                    changed.getString(0),
                    changed.getLocalDate(1),
                    changed.getInt(2),
                    changed.getString(3),
                    changed.getInstant(4)));
            // changed by hand at the server's clock: a newer write time, but not one the sink gives
            session.execute(SimpleStatement.newInstance(
                    "UPDATE " + TARGET_48 + " SET value = 777.25 WHERE hive_id = ? "
                            + "AND day = ? AND shard = ? AND sensor_type = ? AND sensor_id = 'default' AND reading_time = ?",
                    byHand.getString(0),
                    byHand.getLocalDate(1),
                    byHand.getInt(2),
                    byHand.getString(3),
                    byHand.getInstant(4)));
            session.execute(SimpleStatement.newInstance(
                    "DELETE FROM " + TARGET_48 + " WHERE hive_id = ? AND day = ? "
                            + "AND shard = ? AND sensor_type = ? AND sensor_id = 'default' AND reading_time = ?",
                    deleted.getString(0),
                    deleted.getLocalDate(1),
                    deleted.getInt(2),
                    deleted.getString(3),
                    deleted.getInstant(4)));
            session.execute(SimpleStatement.newInstance("INSERT INTO " + TARGET_48 + " (hive_id, day, shard, "
                    + "sensor_type, sensor_id, reading_time, gateway_id, value, unit) VALUES ('hive-extra', "
                    + "'2026-11-21', 3, 'TEMPERATURE', 'probe-9', '2026-11-21T01:30:00Z', 'gw-9', 1.5, 'degC')"));

            Run verify = Run.of(
                    "table",
                    "verify",
                    "--from",
                    SOURCE,
                    "--to",
                    TARGET_48,
                    "--set",
                    "telemetry.shards=48",
                    "--config",
                    config.toString());
            String log = verify.output();
            assertThat(verify.exit()).as(log).isEqualTo(1);
            assertThat(log)
                    .contains("4 differences (1 missing in target, 1 extra in target, 2 different)")
                    .contains("value=777.25")
                    .contains("different: hive_id=" + changed.getString(0) + ", day=" + changed.getLocalDate(1)
                            + ", shard=" + changed.getInt(2) + ", sensor_type=" + changed.getString(3)
                            + ", sensor_id=default, reading_time=" + changed.getInstant(4))
                    .contains("value=12345.5")
                    .contains("missing in target: hive_id=" + deleted.getString(0) + ", day=" + deleted.getLocalDate(1)
                            + ", shard=" + deleted.getInt(2) + ", sensor_type=" + deleted.getString(3)
                            + ", sensor_id=default, reading_time=" + deleted.getInstant(4))
                    .contains("extra in target: hive_id=hive-extra, day=2026-11-21, shard=3, sensor_type=TEMPERATURE, "
                            + "sensor_id=probe-9, reading_time=2026-11-21T01:30:00Z");
        }
    }

    @Test
    @Order(4)
    void should_skip_a_legacy_reading_the_target_holds_under_other_sensor_ids_as_the_read_path_hides_it() {
        String keyspace = "table_copy_it_superseded";
        String legacy = keyspace + "." + TableNames.LEGACY_HIVE_TELEMETRY;
        String current = keyspace + "." + TableNames.HIVE_TELEMETRY;
        Instant merged = Instant.parse("2026-11-20T10:00:00Z");
        Instant alone = Instant.parse("2026-11-20T10:05:00Z");
        int shard = ShardStrategy.TIME.shard("sup", "TEMPERATURE", merged.toEpochMilli(), 96);
        try (CqlSession session = CassandraSessions.open(config(Map.of()))) {
            createBothReadingsTables(session, keyspace);
            for (Instant time : List.of(merged, alone)) { // the legacy row of 10:00 merged the two probes' readings
                session.execute(SimpleStatement.newInstance(
                        "INSERT INTO " + legacy + " (hive_id, day, shard, sensor_type,"
                                + " reading_time, gateway_id, value, unit) VALUES ('sup', '2026-11-20', ?, 'TEMPERATURE', ?, "
                                + "'gw-old', 35.5, 'degC')",
                        shard,
                        time));
            }
            for (String sensor : List.of("inside", "outside")) { // what the new pipeline wrote of 10:00
                session.execute(SimpleStatement.newInstance(
                        "INSERT INTO " + current + " (hive_id, day, shard, "
                                + "sensor_type, sensor_id, reading_time, gateway_id, value, unit) VALUES ('sup', '2026-11-20', "
                                + "?, 'TEMPERATURE', ?, ?, 'gw-new', 35.5, 'degC')",
                        shard,
                        sensor,
                        merged));
            }

            Run copy = Run.of(
                    "table",
                    "copy",
                    "--from",
                    legacy,
                    "--to",
                    current,
                    "--splits",
                    "16",
                    "--config",
                    config.toString());
            assertThat(copy.exit()).as(copy.output()).isZero();
            assertThat(copy.output()).contains("Copied 1 rows").contains("1 legacy readings skipped");
            List<Row> rows = session.execute(SimpleStatement.newInstance(
                            "SELECT sensor_id, reading_time FROM " + current
                                    + " WHERE hive_id = 'sup' AND day = '2026-11-20' AND shard = ?",
                            shard))
                    .all();
            assertThat(rows)
                    .extracting(r -> r.getString(0) + " " + r.getInstant(1))
                    .containsExactlyInAnyOrder("inside " + merged, "outside " + merged, "default " + alone);

            Run verify = Run.of(
                    "table",
                    "verify",
                    "--from",
                    legacy,
                    "--to",
                    current,
                    "--splits",
                    "16",
                    "--config",
                    config.toString());
            assertThat(verify.output())
                    .as("the new pipeline's rows are extra; the merged legacy row is no difference")
                    .contains("2 differences (0 missing in target, 2 extra in target, 0 different)")
                    .contains("1 legacy readings superseded");

            session.execute(SimpleStatement.newInstance("TRUNCATE " + current).setTimeout(Duration.ofMinutes(1)));
            Run again = Run.of(
                    "table",
                    "copy",
                    "--from",
                    legacy,
                    "--to",
                    current,
                    "--splits",
                    "16",
                    "--config",
                    config.toString());
            assertThat(again.exit())
                    .as("the saved progress no longer describes the target: " + again.output())
                    .isEqualTo(2);
            assertThat(again.output())
                    .contains("is empty (truncated, or dropped and created again?): run with --restart");
        }
    }

    @Test
    @Order(5)
    void should_name_a_row_that_cannot_be_copied_in_the_copy_and_in_the_verification() {
        String keyspace = "table_copy_it_uncopyable";
        String legacy = keyspace + "." + TableNames.LEGACY_HIVE_TELEMETRY;
        String current = keyspace + "." + TableNames.HIVE_TELEMETRY;
        try (CqlSession session = CassandraSessions.open(config(Map.of()))) {
            createBothReadingsTables(session, keyspace);
            for (int i = 0; i < 3; i++) {
                Instant time = Instant.parse("2026-11-20T10:00:00Z").plusSeconds(3600L * i);
                int shard = ShardStrategy.TIME.shard("h" + i, "TEMPERATURE", time.toEpochMilli(), 96);
                session.execute(SimpleStatement.newInstance(
                        "INSERT INTO " + legacy + " (hive_id, day, shard, sensor_type,"
                                + " reading_time, gateway_id, value, unit) VALUES (?, '2026-11-20', ?, 'TEMPERATURE', ?, "
                                + "'gw', 30.5, ?)",
                        "h" + i,
                        shard,
                        time,
                        i == 2 ? null : "degC"));
            }

            Run copy = Run.of(
                    "table", "copy", "--from", legacy, "--to", current, "--splits", "1", "--config", config.toString());
            assertThat(copy.exit()).as("a row failed: " + copy.output()).isEqualTo(1);
            assertThat(copy.output())
                    .contains("Copied 2 rows")
                    .contains("error: source row hive_id=h2, day=2026-11-20, shard=")
                    .contains("reading_time=2026-11-20T12:00:00Z of " + legacy + " was not copied")
                    .contains("unit is null, and the target's rows require that column");

            Run verify = Run.of(
                    "table",
                    "verify",
                    "--from",
                    legacy,
                    "--to",
                    current,
                    "--splits",
                    "1",
                    "--config",
                    config.toString());
            assertThat(verify.exit()).as(verify.output()).isEqualTo(1);
            assertThat(verify.output())
                    .contains("not copyable: source row hive_id=h2, day=2026-11-20, shard=")
                    .contains("0 differences (0 missing in target, 0 extra in target, 0 different)")
                    .contains("1 source rows cannot be target rows");

            Run nothing = Run.of(
                    "table",
                    "verify",
                    "--from",
                    legacy,
                    "--to",
                    current,
                    "--splits",
                    "1",
                    "--before",
                    "1970-01-01",
                    "--config",
                    config.toString());
            assertThat(nothing.exit()).as(nothing.output()).isEqualTo(1);
            assertThat(nothing.output())
                    .contains("--before 1970-01-01T00:00:00Z leaves out every one of the 2 source "
                            + "rows of this worker's ranges: nothing was compared");
        }
    }

    @Test
    @Order(6)
    void should_refine_a_single_range_holding_more_source_rows_than_may_be_held() {
        try (CqlSession session = CassandraSessions.open(config(Map.of()))) {
            Row gone = session.execute("SELECT hive_id, day, shard FROM " + TARGET + " LIMIT 1")
                    .one();
            long deleted = session.execute(SimpleStatement.newInstance(
                            "SELECT count(*) FROM " + TARGET + " WHERE hive_id = ? AND day = ? AND shard = ?",
                            gone.getString(0),
                            gone.getLocalDate(1),
                            gone.getInt(2)))
                    .one()
                    .getLong(0);
            session.execute(SimpleStatement.newInstance(
                    "DELETE FROM " + TARGET + " WHERE hive_id = ? AND day = ? AND " + "shard = ?",
                    gone.getString(0),
                    gone.getLocalDate(1),
                    gone.getInt(2)));

            // one range, the whole ring (its width 2^64 - 1 reads as -1 when signed), with 200,000 source rows
            Run verify = Run.of(
                    "table",
                    "verify",
                    "--from",
                    SOURCE,
                    "--to",
                    TARGET,
                    "--splits",
                    "1",
                    "--max-held-rows",
                    "100000",
                    "--config",
                    config.toString());
            assertThat(verify.exit()).as(verify.output()).isEqualTo(1);
            assertThat(verify.output())
                    .contains("1 ranges differ with more than 100,000 source rows each: digesting them in 16 pieces")
                    .contains(String.format(
                            "%,d differences (%,d missing in target, 0 extra in target, 0 different)",
                            deleted, deleted))
                    .contains("missing in target: hive_id=" + gone.getString(0));
        }
    }

    @Test
    @Order(7)
    void should_name_rows_deleted_or_changed_in_the_target_until_copied_again_with_a_fresh_write_time() {
        String keyspace = "table_copy_it_deleted";
        String legacy = keyspace + "." + TableNames.LEGACY_HIVE_TELEMETRY;
        String current = keyspace + "." + TableNames.HIVE_TELEMETRY;
        Instant time = Instant.parse("2026-11-20T10:00:00Z");
        try (CqlSession session = CassandraSessions.open(config(Map.of()))) {
            createBothReadingsTables(session, keyspace);
            for (int i = 0; i < 3; i++) {
                session.execute(SimpleStatement.newInstance(
                        "INSERT INTO " + legacy + " (hive_id, day, shard, sensor_type,"
                                + " reading_time, gateway_id, value, unit) VALUES (?, '2026-11-20', ?, 'TEMPERATURE', ?, "
                                + "'gw', 30.5, 'degC')",
                        "d" + i,
                        ShardStrategy.TIME.shard("d" + i, "TEMPERATURE", time.toEpochMilli(), 96),
                        time));
            }
            String[] copy = {"table", "copy", "--from", legacy, "--to", current, "--splits", "1"};
            String[] verify = {"table", "verify", "--from", legacy, "--to", current, "--splits", "1"};
            String[] settings = {"--config", config.toString()};
            Run first = Run.of(concat(copy, settings));
            assertThat(first.exit()).as(first.output()).isZero();
            assertThat(first.output()).contains("Copied 3 rows");

            int shard = ShardStrategy.TIME.shard("d1", "TEMPERATURE", time.toEpochMilli(), 96);
            String deletedKey = "hive_id=d1, day=2026-11-20, shard=" + shard
                    + ", sensor_type=TEMPERATURE, sensor_id=default, reading_time=" + time;
            // a delete in the target at the server's clock: newer than the source's write time the copy keeps
            session.execute(SimpleStatement.newInstance(
                    "DELETE FROM " + current + " WHERE hive_id = 'd1' AND day = '2026-11-20' AND shard = ? AND "
                            + "sensor_type = 'TEMPERATURE' AND sensor_id = 'default' AND reading_time = ?",
                    shard,
                    time));
            Run missing = Run.of(concat(verify, settings));
            assertThat(missing.exit()).as(missing.output()).isEqualTo(1);
            assertThat(missing.output())
                    .contains("1 differences (1 missing in target, 0 extra in target, 0 different)")
                    .contains("missing in target: " + deletedKey);

            Run restart = Run.of(concat(copy, concat(settings, "--restart")));
            System.out.println("TABLE-COPY-IT copy --restart over a deleted target row: " + restart.output());
            assertThat(restart.exit()).as(restart.output()).isEqualTo(1);
            assertThat(restart.output())
                    .contains("Copied 3 rows")
                    .contains("0 rows failed")
                    .contains("Checked the 1 rows the last table verify named in the done ranges of this worker: 0 "
                            + "restored, 1 not restored")
                    .contains("not restored: missing in target: " + deletedKey)
                    .contains("error: 1 rows could not be restored")
                    .contains("--restart --fresh-write-time");
            Run stillMissing = Run.of(concat(verify, settings));
            assertThat(stillMissing.exit()).as(stillMissing.output()).isEqualTo(1);
            assertThat(stillMissing.output()).contains("1 missing in target");

            Run fresh = Run.of(concat(copy, concat(settings, "--restart", "--fresh-write-time")));
            System.out.println("TABLE-COPY-IT copy --restart --fresh-write-time: " + fresh.output());
            assertThat(fresh.exit()).as(fresh.output()).isZero();
            assertThat(fresh.output())
                    .contains("Copied 3 rows")
                    .contains("Checked the 1 rows the last table verify named in the done ranges of this worker: 1 "
                            + "restored, 0 not restored");
            Row restored = session.execute(SimpleStatement.newInstance(
                            "SELECT value, WRITETIME(value) FROM " + current + " WHERE hive_id = 'd1' AND day = "
                                    + "'2026-11-20' AND shard = ? AND sensor_type = 'TEMPERATURE' AND sensor_id = "
                                    + "'default' AND reading_time = ?",
                            shard,
                            time))
                    .one();
            assertThat(restored).as("the deleted row is back").isNotNull();
            assertThat(restored.getDouble(0)).isEqualTo(30.5);

            Run equal = Run.of(concat(verify, settings));
            assertThat(equal.exit()).as(equal.output()).isZero();
            assertThat(equal.output())
                    .contains("0 differences (0 missing in target, 0 extra in target, 0 different)")
                    .contains("3 rows written again in the target with equal values and a newer write time");

            // by hand, after the copy: one row's value deleted, another's changed (the server's clock)
            String emptiedKey = key("d0", time);
            String changedKey = key("d2", time);
            session.execute(SimpleStatement.newInstance(
                    "DELETE value FROM " + current + " WHERE hive_id = 'd0' AND day = '2026-11-20' AND shard = ? AND "
                            + "sensor_type = 'TEMPERATURE' AND sensor_id = 'default' AND reading_time = ?",
                    ShardStrategy.TIME.shard("d0", "TEMPERATURE", time.toEpochMilli(), 96),
                    time));
            session.execute(SimpleStatement.newInstance(
                    "UPDATE " + current + " SET value = 99 WHERE hive_id = 'd2' AND day = '2026-11-20' AND shard = ? "
                            + "AND sensor_type = 'TEMPERATURE' AND sensor_id = 'default' AND reading_time = ?",
                    ShardStrategy.TIME.shard("d2", "TEMPERATURE", time.toEpochMilli(), 96),
                    time));
            Run changed = Run.of(concat(verify, settings));
            assertThat(changed.exit()).as(changed.output()).isEqualTo(1);
            assertThat(changed.output())
                    .contains("2 differences (0 missing in target, 0 extra in target, 2 different)")
                    .contains("different: " + emptiedKey + " (source: gateway_id=gw, value=30.5")
                    .contains("target: gateway_id=gw, value=null, unit=degC")
                    .contains("different: " + changedKey)
                    .contains("target: gateway_id=gw, value=99.0, unit=degC");

            Run resumed = Run.of(concat(copy, settings));
            System.out.println("TABLE-COPY-IT copy over stored findings, every range done: " + resumed.output());
            assertThat(resumed.exit()).as(resumed.output()).isEqualTo(1);
            assertThat(resumed.output())
                    .contains("Copied 0 rows")
                    .contains("not copied by this run: different: " + emptiedKey)
                    .contains("not copied by this run: different: " + changedKey)
                    .contains("error: 2 rows the last table verify named are still not in")
                    .contains("--restart");

            Run rewrite = Run.of(concat(copy, concat(settings, "--restart", "--fresh-write-time")));
            System.out.println(
                    "TABLE-COPY-IT copy --restart --fresh-write-time over rows changed by hand: " + rewrite.output());
            assertThat(rewrite.exit()).as(rewrite.output()).isZero();
            assertThat(rewrite.output())
                    .contains("Copied 3 rows")
                    .doesNotContain("legacy readings skipped")
                    .contains("Checked the 2 rows the last table verify named in the done ranges of this worker: 2 "
                            + "restored, 0 not restored");
            Run restoredBoth = Run.of(concat(verify, settings));
            assertThat(restoredBoth.exit()).as(restoredBoth.output()).isZero();
        }
    }

    /** The key of a legacy TEMPERATURE reading of {@code hive} copied into the current layout at 96 shards. */
    private static String key(String hive, Instant time) {
        return "hive_id=" + hive + ", day=2026-11-20, shard="
                + ShardStrategy.TIME.shard(hive, "TEMPERATURE", time.toEpochMilli(), 96)
                + ", sensor_type=TEMPERATURE, sensor_id=default, reading_time=" + time;
    }

    /** Creates {@code keyspace} afresh with an empty legacy hive_telemetry and an empty hive_telemetry_v2. */
    private static void createBothReadingsTables(CqlSession session, String keyspace) {
        session.execute(SimpleStatement.newInstance("DROP KEYSPACE IF EXISTS " + keyspace)
                .setTimeout(Duration.ofMinutes(1)));
        SchemaApplier.apply(
                session,
                SchemaApplier.load(null, keyspace, SchemaApplier.DEV_REPLICATION).stream()
                        .filter(s -> s.name().startsWith("000") || s.name().contains(TableNames.HIVE_TELEMETRY))
                        .toList());
        SchemaApplier.apply(
                session,
                SchemaApplier.load(Path.of("..", "cql", "legacy"), keyspace, SchemaApplier.DEV_REPLICATION).stream()
                        .filter(s -> s.name().contains("hive_telemetry"))
                        .toList());
    }

    /** Every target row against its source row: key, values, each cell's write time, and TTL within the time elapsed. */
    private static void checkEveryRow(CqlSession session, String target, int shards, Instant copyStarted) {
        Instant readStart = Instant.now();
        List<Row> rows = session.execute(
                        SimpleStatement.newInstance("SELECT hive_id, day, shard, sensor_type, sensor_id,"
                                        + " reading_time, gateway_id, value, unit, WRITETIME(gateway_id), WRITETIME(value), WRITETIME(unit), "
                                        + "TTL(gateway_id), TTL(value), TTL(unit) FROM " + target)
                                .setPageSize(10_000))
                .all();
        Instant readEnd = Instant.now();
        // a target cell's TTL = the source's when the source was read, less the time since, plus the copy's
        // delay between reading the source row and writing it (at most the time since the copy started)
        long sinceSourceReadAtStart = Duration.between(sourceRead, readStart).toSeconds();
        long sinceSourceReadAtEnd = Duration.between(sourceRead, readEnd).toSeconds() + 1;
        long copyDelay = Duration.between(copyStarted, readEnd).toSeconds() + 1;
        assertThat(rows).hasSize(ROWS);
        List<String> wrong = new ArrayList<>();
        for (Row row : rows) {
            String key = row.getString(0) + "|" + row.getString(3) + "|" + row.getInstant(5);
            SourceRow expected = source.get(key);
            long time = row.getInstant(5).toEpochMilli();
            if (expected == null) {
                wrong.add(key + ": not in the source");
                continue;
            }
            boolean keyRight = row.getLocalDate(1).equals(DayBucket.of(time))
                    && row.getInt(2) == ShardStrategy.TIME.shard(row.getString(0), row.getString(3), time, shards)
                    && Identifiers.DEFAULT_SENSOR_ID.equals(row.getString(4));
            boolean valuesRight = expected.gateway().equals(row.getString(6))
                    && expected.value() == row.getDouble(7)
                    && expected.unit().equals(row.getString(8));
            boolean writeTimeRight = row.getLong(9) == expected.maxWriteTime()
                    && row.getLong(10) == expected.maxWriteTime()
                    && row.getLong(11) == expected.maxWriteTime();
            boolean ttlRight = true;
            for (int cell = 12; cell <= 14; cell++) {
                if (expected.latestTtl() == 0) {
                    ttlRight &= row.isNull(cell);
                } else {
                    long ttl = row.isNull(cell) ? -1 : row.getInt(cell);
                    ttlRight &= ttl >= expected.latestTtl() - sinceSourceReadAtEnd - 1
                            && ttl <= expected.latestTtl() - sinceSourceReadAtStart + copyDelay + 1;
                }
            }
            if (!keyRight || !valuesRight || !writeTimeRight || !ttlRight) {
                wrong.add(key + ": " + row.getFormattedContents() + " against " + expected);
            }
        }
        assertThat(wrong.size())
                .as(
                        "target rows that differ from their source row; the first ones: %s",
                        wrong.subList(0, Math.min(10, wrong.size())))
                .isZero();
    }

    /** The source rows, keyed by hive, sensor type and reading time, with their cells' greatest write time and its TTL. */
    private static Map<String, SourceRow> readSource(CqlSession session) {
        Map<String, SourceRow> rows = new HashMap<>();
        for (Row row : session.execute(SimpleStatement.newInstance("SELECT hive_id, sensor_type, reading_time, "
                        + "gateway_id, value, unit, WRITETIME(gateway_id), WRITETIME(value), WRITETIME(unit), TTL(gateway_id), "
                        + "TTL(value), TTL(unit) FROM " + SOURCE)
                .setPageSize(10_000))) {
            int latest = 6;
            for (int cell = 7; cell <= 8; cell++) {
                if (row.getLong(cell) > row.getLong(latest)) {
                    latest = cell;
                }
            }
            int ttl = row.isNull(latest + 3) ? 0 : row.getInt(latest + 3);
            rows.put(
                    row.getString(0) + "|" + row.getString(1) + "|" + row.getInstant(2),
                    new SourceRow(row.getString(3), row.getDouble(4), row.getString(5), row.getLong(latest), ttl));
        }
        return rows;
    }

    /** A command run in this JVM, as a user runs it: its exit code and its stdout and stderr. */
    record Run(int exit, String output) {
        static Run of(String... args) {
            java.io.StringWriter text = new java.io.StringWriter();
            java.io.PrintWriter writer = new java.io.PrintWriter(text, true);
            picocli.CommandLine cli = io.apiary.ingest.cli.IngestApp.commandLine();
            cli.setOut(writer);
            cli.setErr(writer);
            int exit = cli.execute(args);
            writer.flush();
            return new Run(exit, text.toString());
        }
    }

    private static int doneRanges(CqlSession session) {
        if (session.getMetadata()
                .getKeyspace(KEYSPACE)
                .flatMap(k -> k.getTable(TableNames.TABLE_COPY_PROGRESS))
                .isEmpty()) {
            return 0;
        }
        return (int)
                session.execute("SELECT done FROM " + KEYSPACE + "." + TableNames.TABLE_COPY_PROGRESS).all().stream()
                        .filter(r -> r.getBoolean(0))
                        .count();
    }

    private static String summary(String log) {
        return log.lines()
                .filter(line -> line.startsWith("Copied "))
                .findFirst()
                .orElse("(no summary)");
    }

    private static double cassandraCpuSeconds() {
        return stack.localStack()
                .map(local -> RunMeter.processCpuSeconds(local.cassandra().pid()))
                .orElse(Double.NaN);
    }

    private static IngestConfig config(Map<String, Object> extra) {
        Map<String, Object> settings = new HashMap<>(stack.clientSettings());
        settings.put(IngestConfig.CASSANDRA_KEYSPACE, KEYSPACE);
        settings.putAll(extra);
        return ConfigLoader.load(null, Map.of(), settings);
    }

    private static String[] concat(String[] first, String... more) {
        String[] all = java.util.Arrays.copyOf(first, first.length + more.length);
        System.arraycopy(more, 0, all, first.length, more.length);
        return all;
    }
}
