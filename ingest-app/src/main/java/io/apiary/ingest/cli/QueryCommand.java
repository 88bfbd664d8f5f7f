package io.apiary.ingest.cli;

import com.datastax.oss.driver.api.core.CqlSession;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.read.ActivityRow;
import io.apiary.ingest.read.AlertRow;
import io.apiary.ingest.read.HiveDataReader;
import io.apiary.ingest.read.MergedRows;
import io.apiary.ingest.read.OutputFormat;
import io.apiary.ingest.read.ReadOrder;
import io.apiary.ingest.read.ReadPage;
import io.apiary.ingest.read.ReadRequest;
import io.apiary.ingest.read.ReadSettings;
import io.apiary.ingest.read.ReadStats;
import io.apiary.ingest.read.RowOutput;
import io.apiary.ingest.read.SensorSelector;
import io.apiary.ingest.read.SeriesTable;
import io.apiary.ingest.read.TelemetryRow;
import io.apiary.ingest.read.TimedRow;
import io.apiary.ingest.read.WeatherRow;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code query}: an entity's rows of one table over a time range, read with the bucket math done
 * ({@link HiveDataReader}): rows on stdout as an aligned table, CSV or JSON lines; on stderr how
 * many rows, from how many partitions, in how long, and the page token of the next page.
 */
@Command(
        name = "query",
        mixinStandardHelpOptions = true,
        description = "Reads a hive's (station's, agent's) rows over a time range from Cassandra, doing the day "
                + "and shard bucket math for you.",
        subcommands = {
            QueryCommand.Telemetry.class,
            QueryCommand.Activity.class,
            QueryCommand.Weather.class,
            QueryCommand.Alerts.class
        })
public final class QueryCommand {

    /** What every query subcommand takes: the range, order, limit, page token, format and settings. */
    abstract static class Query<R extends TimedRow> implements Callable<Integer> {

        @Mixin
        RangeOptions range;

        @Option(
                names = "--order",
                defaultValue = "asc",
                paramLabel = "asc|desc",
                description = "Oldest first (asc, the default) or newest first (desc).")
        String order;

        @Option(
                names = "--limit",
                paramLabel = "N",
                description = "Print at most N rows, then the page token of the next page (default: every row).")
        Integer limit;

        @Option(
                names = "--page-token",
                paramLabel = "TOKEN",
                description = "Continue after the page that printed this token (same query, same order).")
        String pageToken;

        @Option(
                names = "--format",
                defaultValue = "table",
                paramLabel = "table|csv|json",
                description = "table (aligned, the default), csv (with a header row) or json (JSON lines).")
        String format;

        @Mixin
        ConfigOptions config;

        @Spec
        CommandSpec spec;

        /** @return the table read */
        abstract SeriesTable<R> table();

        /** @return the entity read */
        abstract String entity();

        /** @return what the entity is, for messages: "hive", "station" or "agent" */
        String entityName() {
            return "hive";
        }

        /**
         * @return the sensors asked for; empty for all
         * @throws IllegalArgumentException naming what is wrong with one
         */
        List<SensorSelector> sensors() {
            return List.of();
        }

        @Override
        public Integer call() throws java.io.IOException {
            if (limit != null && limit < 1) {
                throw new ParameterException(spec.commandLine(), "--limit must be at least 1, was " + limit);
            }
            ReadRequest<R> request;
            OutputFormat output;
            try {
                request = new ReadRequest<>(
                        table(), entity(), sensors(), range.range(), ReadOrder.parse(order), pageToken);
                output = OutputFormat.parse(format);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage(), e);
            }
            IngestConfig cfg = config.load();
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            try (CqlSession session = CassandraSessions.open(cfg)) {
                HiveDataReader reader = new HiveDataReader(session, ReadSettings.from(cfg));
                ReadStats stats;
                String next = null;
                if (limit == null) {
                    try (MergedRows<R> rows = reader.stream(request)) {
                        RowOutput.write(output, table().rowType(), untilOutputCloses(rows, out), out);
                        stats = rows.stats();
                    }
                } else {
                    ReadPage<R> page = reader.page(request, limit);
                    RowOutput.write(output, table().rowType(), page.rows().iterator(), out);
                    stats = page.stats();
                    next = page.nextPageToken();
                }
                out.flush();
                err.println(summary(stats));
                if (stats.rows() == 0 && pageToken == null) {
                    err.println(
                            "No rows: the " + entityName() + " id '" + entity() + "' is matched exactly, letter case"
                                    + " included, and an unknown id gives no rows like an empty range does; check the id"
                                    + " (for example with 'dump' of the gateway topic, keyed by it) and --from/--to.");
                }
                if (next != null) {
                    err.println("More rows: add --page-token " + next);
                }
            }
            return 0;
        }

        /**
         * The rows, until stdout is found closed (e.g. piped into {@code head}): checked every
         * 100 rows, since a PrintWriter swallows write errors; then the read stops.
         */
        private static <T> java.util.Iterator<T> untilOutputCloses(java.util.Iterator<T> rows, PrintWriter out) {
            return new java.util.Iterator<>() {
                private long count;

                @Override
                public boolean hasNext() {
                    if (count % 100 == 0 && count > 0 && out.checkError()) {
                        throw new io.apiary.ingest.read.ReadException(
                                "the output was closed after " + count + " rows; stopped reading", null);
                    }
                    return rows.hasNext();
                }

                @Override
                public T next() {
                    count++;
                    return rows.next();
                }
            };
        }

        private String summary(ReadStats stats) {
            return String.format(
                    Locale.ROOT,
                    "%,d %s of %s from %,d of the %,d partitions that can hold them " + "(%,d %s) in %.3f s",
                    stats.rows(),
                    stats.rows() == 1 ? "row" : "rows",
                    stats.tablesText(),
                    stats.partitionsRead(),
                    stats.partitionsInRange(),
                    stats.requests(),
                    stats.requests() == 1 ? "request" : "requests",
                    stats.elapsed().toNanos() / 1e9);
        }
    }

    /** {@code query telemetry}. */
    @Command(
            name = "telemetry",
            mixinStandardHelpOptions = true,
            sortOptions = false,
            description = "A hive's sensor readings (hive_telemetry_v2, and the legacy hive_telemetry while it "
                    + "exists), merged in time order across its day and shard partitions.",
            footer = {
                "",
                "Examples:",
                "  ingest-app query telemetry --hive 3627 --sensor TEMPERATURE --from 2021-07-15 "
                        + "--to 2021-07-15 --limit 5 --config apiary-devstack.properties",
                "  ingest-app query telemetry --hive 3627 --sensor TEMPERATURE:inside,HUMIDITY --from 2021-07-15 "
                        + "--to 2021-07-15 --config apiary-devstack.properties"
            })
    static final class Telemetry extends Query<TelemetryRow> {

        @Option(names = "--hive", required = true, paramLabel = "ID", description = "The hive id.")
        String hive;

        @Option(
                names = "--sensor",
                paramLabel = "TYPE[:SENSOR_ID]",
                description = "Sensors to read: a type for every sensor of it, TYPE:SENSOR_ID for one, e.g. "
                        + "TEMPERATURE:inside,HUMIDITY (default: every sensor of every type).")
        List<String> sensorTexts = new ArrayList<>();

        @Override
        SeriesTable<TelemetryRow> table() {
            return SeriesTable.TELEMETRY;
        }

        @Override
        String entity() {
            return hive;
        }

        @Override
        List<SensorSelector> sensors() {
            List<SensorSelector> sensors = new ArrayList<>();
            for (String option : sensorTexts) {
                for (String text : option.split(",", -1)) { // -1: an empty selector is an error, not dropped
                    if (text.isBlank()) {
                        throw new IllegalArgumentException("--sensor '" + option + "': an empty selector; expected "
                                + "TYPE[:SENSOR_ID], comma-separated, e.g. TEMPERATURE:inside,HUMIDITY");
                    }
                    try {
                        sensors.add(SensorSelector.parse(text));
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException("--sensor " + e.getMessage(), e);
                    }
                }
            }
            return sensors;
        }
    }

    /** {@code query activity}. */
    @Command(
            name = "activity",
            mixinStandardHelpOptions = true,
            sortOptions = false,
            description = "A hive's hourly bee entries and exits (hive_activity), one row per UTC hour.",
            footer = {
                "",
                "Example:",
                "  ingest-app query activity --hive 3627 --from 2021-07-15 --to 2021-07-16 "
                        + "--config apiary-devstack.properties"
            })
    static final class Activity extends Query<ActivityRow> {

        @Option(names = "--hive", required = true, paramLabel = "ID", description = "The hive id.")
        String hive;

        @Override
        SeriesTable<ActivityRow> table() {
            return SeriesTable.ACTIVITY;
        }

        @Override
        String entity() {
            return hive;
        }
    }

    /** {@code query weather}. */
    @Command(
            name = "weather",
            mixinStandardHelpOptions = true,
            sortOptions = false,
            description =
                    "A weather station's readings (weather_readings), merged across its day and shard partitions.")
    static final class Weather extends Query<WeatherRow> {

        @Option(names = "--station", required = true, paramLabel = "ID", description = "The station id.")
        String station;

        @Override
        SeriesTable<WeatherRow> table() {
            return SeriesTable.WEATHER;
        }

        @Override
        String entity() {
            return station;
        }

        @Override
        String entityName() {
            return "station";
        }
    }

    /** {@code query alerts}. */
    @Command(
            name = "alerts",
            mixinStandardHelpOptions = true,
            sortOptions = false,
            description = "A monitoring agent's alerts (agent_alerts_v2, and the legacy agent_alerts while it exists), "
                    + "across its day partitions.")
    static final class Alerts extends Query<AlertRow> {

        @Option(names = "--agent", required = true, paramLabel = "ID", description = "The agent id.")
        String agent;

        @Override
        SeriesTable<AlertRow> table() {
            return SeriesTable.ALERTS;
        }

        @Override
        String entity() {
            return agent;
        }

        @Override
        String entityName() {
            return "agent";
        }
    }
}
