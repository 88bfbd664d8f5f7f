package io.apiary.ingest.topology;

import io.apiary.schema.EntranceCount;
import io.apiary.schema.HourlyActivity;

/**
 * What the hourly activity processor forwards, split by type into the output topics right after
 * it (never serialized as such). Immutable.
 */
public sealed interface ActivityOutput {

    /**
     * The current sums of an hour that is still open, for hive_activity only.
     *
     * @param activity the hour's sums so far, not null
     */
    record Interim(HourlyActivity activity) implements ActivityOutput {}

    /**
     * The final sums of an hour that has closed: for hive.activity.hourly.v1 and hive_activity.
     *
     * @param activity the hour's final sums, not null
     */
    record Final(HourlyActivity activity) implements ActivityOutput {}

    /**
     * A sample that arrived after its hour had closed, for hive.activity.late.v1.
     *
     * @param sample the sample as received, not null
     */
    record Late(EntranceCount sample) implements ActivityOutput {}
}
