package io.apiary.ingest.cli;

import com.datastax.oss.driver.api.core.CqlSession;
import io.apiary.ingest.cassandra.CassandraSessions;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.read.HiveDataReader;
import io.apiary.ingest.read.ReadSettings;
import io.apiary.ingest.read.TimeRange;
import io.apiary.ingest.report.HiveReportFile;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code report}: one hive's readings and hourly activity over a range as a self-contained HTML
 * file (charts and tables; no external scripts or fonts, so it opens offline). Prints the file's
 * path on stdout, what was read on stderr.
 */
@Command(
        name = "report",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Writes an HTML report of one hive over a date range: a chart per sensor, hourly bees in and "
                + "out, and the numbers behind them. Self-contained: it opens offline in any browser.",
        footer = {
            "",
            "Example:",
            "  ingest-app report --hive 3627 --from 2021-07-12 --to 2021-07-18 --zone America/Toronto "
                    + "--config apiary-devstack.properties"
        })
public final class ReportCommand implements Callable<Integer> {

    @Option(names = "--hive", required = true, paramLabel = "ID", description = "The hive id.")
    String hive;

    @Mixin
    RangeOptions dates;

    @Option(
            names = {"-o", "--output"},
            paramLabel = "FILE",
            description = "Where to write the report (default: hive-ID-FROM-TO.html in the current folder).")
    Path output;

    @Option(
            names = "--zone",
            defaultValue = "UTC",
            paramLabel = "ZONE",
            description = "Display zone of the report's times, e.g. America/Toronto, Europe/Berlin, -05:00 "
                    + "(default: ${DEFAULT-VALUE}); the offset from UTC is shown. Dates and local times of "
                    + "--from and --to are read in it too.")
    ZoneId zone;

    @Option(
            names = "--max-readings",
            defaultValue = "1000000",
            paramLabel = "N",
            description = "Refuse ranges holding more than N readings (the report holds them in memory; "
                    + "default: ${DEFAULT-VALUE}).")
    int maxReadings;

    @Mixin
    ConfigOptions config;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (maxReadings < 1) {
            throw new ParameterException(spec.commandLine(), "--max-readings must be at least 1, was " + maxReadings);
        }
        TimeRange range;
        try {
            range = dates.range(zone);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        if (hive.isBlank()) {
            throw new ParameterException(spec.commandLine(), "--hive must not be blank");
        }
        Path file;
        try {
            file = HiveReportFile.checkTarget(
                    output != null ? output : Path.of(HiveReportFile.fileName(hive, dates.from, dates.to)));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "-o: " + e.getMessage(), e);
        }
        IngestConfig cfg = config.load();
        try (CqlSession session = CassandraSessions.open(cfg)) {
            HiveReportFile.Written written = HiveReportFile.write(
                    new HiveDataReader(session, ReadSettings.from(cfg)),
                    hive,
                    range,
                    file,
                    Instant.now(),
                    maxReadings,
                    null,
                    zone);
            spec.commandLine().getErr().println(written.summary());
            spec.commandLine().getOut().println(written.file());
        }
        return 0;
    }
}
