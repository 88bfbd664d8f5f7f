package io.apiary.ingest.cli;

import io.apiary.ingest.demo.Demo;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code demo}: the whole pipeline on a local Kafka and Cassandra with real hive data. */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = {
            "Starts a local Kafka broker and Cassandra node, the topology and the sink; replays the "
                    + "bundled UrBAN hive readings (CC BY 4.0) with simulated entrance counts; shows progress and "
                    + "a summary; then stops everything.",
            "Needs JDK 17 and the build's dev stack " + "(./mvnw -DskipTests package)."
        })
public final class DemoCommand implements Callable<Integer> {

    @Option(
            names = "--work-dir",
            paramLabel = "DIR",
            description = "Working folder for the servers' data and logs (default: a new temporary folder).")
    Path workDir;

    @Option(names = "--keep-work-dir", description = "Keep the working folder (data and server logs) afterwards.")
    boolean keepWorkDir;

    @Option(
            names = "--count-interval-seconds",
            defaultValue = "60",
            paramLabel = "S",
            description = "Interval of the simulated entrance-counter samples, seconds (default: ${DEFAULT-VALUE}).")
    int countIntervalSeconds;

    @Option(
            names = "--show-hive",
            defaultValue = "3627",
            paramLabel = "HIVE",
            description = "Hive whose hourly activity the summary shows (default: ${DEFAULT-VALUE}).")
    String showHive;

    @Option(
            names = "--show-day",
            defaultValue = "2021-07-15",
            paramLabel = "YYYY-MM-DD",
            description = "UTC day whose hourly activity the summary shows (default: ${DEFAULT-VALUE}).")
    LocalDate showDay;

    @Option(
            names = "--report",
            paramLabel = "FILE",
            description = "Where to write the HTML report of the shown hive, for the week around the shown day "
                    + "(default: apiary-demo/run-YYYYMMDD-HHMMSS-PID/hive-HIVE-FROM-TO.html in the temporary folder, one"
                    + " folder per run).")
    Path report;

    @Option(
            names = "--keep-running",
            description = "After the summary, keep the servers and the pipeline running (with the demo's data) "
                    + "until Ctrl-C, and write a settings file for the other commands.")
    boolean keepRunning;

    @Option(
            names = "--timeout-minutes",
            defaultValue = "15",
            paramLabel = "MIN",
            description = "Longest wait for everything to be written (default: ${DEFAULT-VALUE}).")
    int timeoutMinutes;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (countIntervalSeconds < 1 || countIntervalSeconds > 86_400) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--count-interval-seconds must be between 1 and 86400, was " + countIntervalSeconds);
        }
        if (timeoutMinutes < 1) {
            throw new ParameterException(
                    spec.commandLine(), "--timeout-minutes must be at least 1, was " + timeoutMinutes);
        }
        PrintWriter out = spec.commandLine().getOut();
        return new Demo(
                        new Demo.Options(
                                workDir,
                                keepWorkDir,
                                Duration.ofSeconds(countIntervalSeconds),
                                showHive,
                                showDay,
                                Duration.ofMinutes(timeoutMinutes),
                                keepRunning,
                                report),
                        out)
                .run();
    }
}
