package io.apiary.ingest.read;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * One row of {@code hive_activity}: a hive's bee entries and exits in one UTC hour. Until the
 * hour has closed (its end plus the grace period, in stream time) the sums may still grow. A
 * number whose cell is null (a row another writer or a partial update left without it) is null,
 * never 0: 0 is a real count.
 *
 * @param hiveId  the hive (partition key {@code hive_id}), not null
 * @param day     the UTC day of the hour (clustering column {@code day}), not null
 * @param hour    the UTC hour of day, 0 to 23 (clustering column {@code hour})
 * @param beesIn  bees that entered in the hour ({@code bees_in}), null if the cell is null
 * @param beesOut bees that left in the hour ({@code bees_out}), null if the cell is null
 * @param samples entrance-counter samples summed ({@code samples}), null if the cell is null
 */
public record ActivityRow(String hiveId, LocalDate day, int hour, Long beesIn, Long beesOut, Integer samples)
        implements TimedRow {

    /** Checks the non-null fields and the hour. */
    public ActivityRow {
        Objects.requireNonNull(hiveId, "hiveId");
        Objects.requireNonNull(day, "day");
        if (hour < 0 || hour > 23) {
            throw new IllegalArgumentException("hour must be 0 to 23, was " + hour);
        }
    }

    /** @return the start of the hour, UTC */
    @Override
    public Instant time() {
        return day.atTime(hour, 0).toInstant(ZoneOffset.UTC);
    }

    @Override
    public String series() {
        return "";
    }
}
