package io.apiary.ingest.tablecopy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import io.apiary.ingest.bucket.DayBucket;
import io.apiary.ingest.bucket.ShardStrategy;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;

/**
 * Writes readings into a table of the legacy layout ({@code cql/legacy/010-hive_telemetry.cql})
 * with CQL, as the first versions' sink left them: 20 hives, 4 sensor types, 5 UTC days from
 * 2026-11-20, shard from the time strategy at 96 shards, and for each row a write time of its own
 * (its reading time plus up to 1 s) and a TTL of its own (one row in five without TTL). One row in
 * twenty has its value written again later with another write time and TTL, so its cells differ
 * (the copy keeps the latest cell's). Deterministic for a seed. For {@code TableCopyIT} and for
 * measuring by hand ({@link #main}).
 */
public final class LegacyReadings {

    /** Hives written. */
    static final int HIVES = 20;
    /** Sensor types written. */
    static final List<String> TYPES = List.of("TEMPERATURE", "HUMIDITY", "WEIGHT", "CO2");
    /** The first day written. */
    static final LocalDate FIRST_DAY = LocalDate.of(2026, 11, 20);
    /** Days written. */
    static final int DAYS = 5;

    private LegacyReadings() {}

    /**
     * Writes rows.
     *
     * @param session an open session
     * @param table   {@code keyspace.table} of the legacy layout
     * @param rows    how many
     * @param seed    the seed of write times, TTLs and values
     * @return how many rows have a second write of their value
     * @throws InterruptedException if interrupted
     */
    public static int write(CqlSession session, String table, int rows, long seed) throws InterruptedException {
        PreparedStatement insert = session.prepare("INSERT INTO " + table + " (hive_id, day, shard, sensor_type, "
                + "reading_time, gateway_id, value, unit) VALUES (?, ?, ?, ?, ?, ?, ?, ?) USING TIMESTAMP ? AND TTL ?");
        PreparedStatement update = session.prepare("UPDATE " + table + " USING TIMESTAMP ? AND TTL ? SET value = ? "
                + "WHERE hive_id = ? AND day = ? AND shard = ? AND sensor_type = ? AND reading_time = ?");
        SplittableRandom random = new SplittableRandom(seed);
        int perSeries = Math.max(1, (rows + HIVES * TYPES.size() - 1) / (HIVES * TYPES.size()));
        long span = DAYS * DayBucket.MILLIS_PER_DAY;
        long start = FIRST_DAY.toEpochDay() * DayBucket.MILLIS_PER_DAY;
        // one UNLOGGED batch per partition, a hive's readings in time order: the old sink's writes, and fast
        Semaphore inFlight = new Semaphore(64);
        List<CompletableFuture<?>> writes = new ArrayList<>();
        List<BatchableStatement<?>> batch = new ArrayList<>();
        String partition = null;
        int rewritten = 0;
        for (int i = 0; i < rows; i++) {
            int series = i / perSeries;
            int hive = series / TYPES.size() % HIVES;
            long slot = i % perSeries;
            int typeIndex = (i / perSeries) % TYPES.size();
            String type = TYPES.get(typeIndex);
            long time = start + slot * span / perSeries + hive * 1_000L + typeIndex;
            String hiveId = "hive-" + hive;
            LocalDate day = DayBucket.of(time);
            int shard = ShardStrategy.TIME.shard(hiveId, type, time, 96);
            long writeTime = time * 1_000 + random.nextInt(1_000_000);
            int ttl = random.nextInt(5) == 0 ? 0 : 3_600 + random.nextInt(7_776_000 - 3_600);
            double value = Math.round(random.nextDouble() * 10_000) / 100.0;
            String key = hiveId + "|" + day + "|" + shard + "|" + type;
            if (!key.equals(partition) && !batch.isEmpty()) {
                send(session, batch, inFlight, writes);
                batch = new ArrayList<>();
            }
            partition = key;
            batch.add(insert.bind(
                    hiveId,
                    day,
                    shard,
                    type,
                    Instant.ofEpochMilli(time),
                    "gw-" + hive % 3,
                    value,
                    unit(type),
                    writeTime,
                    ttl));
            if (random.nextInt(20) == 0) {
                rewritten++;
                long later = writeTime + 1 + random.nextInt(5_000_000);
                int laterTtl = random.nextInt(4) == 0 ? 0 : 3_600 + random.nextInt(7_776_000 - 3_600);
                batch.add(update.bind(
                        later, laterTtl, value + 0.5, hiveId, day, shard, type, Instant.ofEpochMilli(time)));
            }
        }
        if (!batch.isEmpty()) {
            send(session, batch, inFlight, writes);
        }
        writes.forEach(CompletableFuture::join);
        return rewritten;
    }

    private static void send(
            CqlSession session,
            List<BatchableStatement<?>> batch,
            Semaphore inFlight,
            List<CompletableFuture<?>> writes)
            throws InterruptedException {
        inFlight.acquire();
        writes.add(session.executeAsync(BatchStatement.newInstance(BatchType.UNLOGGED, batch))
                .toCompletableFuture()
                .whenComplete((ok, error) -> inFlight.release()));
        if (writes.size() > 1_000) {
            writes.removeIf(w -> w.isDone() && !w.isCompletedExceptionally());
        }
    }

    private static String unit(String type) {
        return switch (type) {
            case "TEMPERATURE" -> "degC";
            case "HUMIDITY" -> "%RH";
            case "WEIGHT" -> "kg";
            default -> "ppm";
        };
    }

    /**
     * Writes rows into a table for a measurement by hand: {@code LegacyReadings HOST:PORT DATACENTER
     * KEYSPACE.TABLE ROWS}.
     *
     * @param args contact point, datacenter, table, rows
     * @throws InterruptedException if interrupted
     */
    public static void main(String[] args) throws InterruptedException {
        String[] hostPort = args[0].split(":");
        try (CqlSession session = CqlSession.builder()
                .addContactPoint(new java.net.InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1])))
                .withLocalDatacenter(args[1])
                .build()) {
            long start = System.nanoTime();
            int rewritten = write(session, args[2], Integer.parseInt(args[3]), 17);
            System.out.printf(
                    "wrote %s rows (%d with a second write) in %.1f s%n",
                    args[3], rewritten, (System.nanoTime() - start) / 1e9);
        }
    }
}
