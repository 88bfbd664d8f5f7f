package io.apiary.ingest.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/**
 * One run of the command line in this JVM ({@link IngestApp#commandLine()}), with what it printed.
 *
 * @param exit its exit code
 * @param out  what it printed on standard output
 * @param err  what it printed on standard error
 */
public record CliRun(int exit, String out, String err) {

    /**
     * @param args the command line's arguments
     * @return the run's exit code and output
     */
    public static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = IngestApp.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int exit = cli.execute(args);
        return new CliRun(exit, out.toString(), err.toString());
    }
}
