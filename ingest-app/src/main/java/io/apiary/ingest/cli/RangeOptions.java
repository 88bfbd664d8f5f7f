package io.apiary.ingest.cli;

import io.apiary.ingest.read.TimeRange;
import picocli.CommandLine.Option;

/** The {@code --from} and {@code --to} options of {@code query} and {@code report} (forms: {@link TimeArgument}). */
public final class RangeOptions {

    @Option(
            names = "--from",
            required = true,
            paramLabel = "TIME",
            description = "Start of the range, included: a date (2021-07-15) or a date and time (2021-07-15T10:00), "
                    + "read in UTC (report: in --zone), or an instant (2021-07-15T10:00:00Z, 2021-07-15T12:00+02:00).")
    String from;

    @Option(
            names = "--to",
            required = true,
            paramLabel = "TIME",
            description = "End of the range: a date includes that whole day; a time is excluded.")
    String to;

    /**
     * @return the range
     * @throws IllegalArgumentException naming the accepted forms, or if the end is not after the start
     */
    TimeRange range() {
        return TimeArgument.range(from, to);
    }

    /**
     * @param zone the zone of dates and local times, not null
     * @return the range
     * @throws IllegalArgumentException naming the accepted forms, or if the end is not after the start
     */
    TimeRange range(java.time.ZoneId zone) {
        return TimeArgument.range(from, to, zone);
    }
}
