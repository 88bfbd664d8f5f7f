package io.apiary.ingest.cli;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.pipeline.RegistrySubjects;
import io.apiary.ingest.serde.RegistrySettings;
import io.apiary.ingest.serde.SchemaRegistryClient;
import io.apiary.ingest.serde.SchemaSubjects;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.kafka.common.config.ConfigException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code registry register} and {@code registry check}: the pipeline's subjects in a schema
 * registry, those of its topics and of the row topics of {@code sink.extra.tables}
 * ({@link RegistrySubjects#all}).
 */
@Command(
        name = "registry",
        mixinStandardHelpOptions = true,
        description = "Schema registry commands.",
        subcommands = {RegistryCommand.Register.class, RegistryCommand.Check.class})
public final class RegistryCommand {

    private static SchemaRegistryClient registry(IngestConfig cfg) {
        return cfg.wireFormat()
                .registryClient()
                .orElseThrow(() -> new ConfigException(
                        RegistrySettings.REGISTRY_URL, "", "this command needs the URL of a schema registry"));
    }

    private static void print(PrintWriter out, SchemaSubjects.Outcome outcome) {
        String id;
        if (outcome.id() >= 0) {
            id = "id " + outcome.id() + " published"
                    + (outcome.equivalentId() >= 0 ? " (Java-flavoured id " + outcome.equivalentId() + " kept)" : "");
        } else {
            id = outcome.equivalentId() >= 0 ? "only Java-flavoured, id " + outcome.equivalentId() : "not registered";
        }
        out.printf(
                "%-40s %s  %d version(s)%s%s  compatibility %s%n",
                outcome.subject(),
                id,
                outcome.versions(),
                outcome.registered() > 0 ? " (" + outcome.registered() + " registered now)" : "",
                outcome.superseded() > 0 ? " (" + outcome.superseded() + " Java-flavoured superseded)" : "",
                outcome.compatibility());
    }

    /** Registers every subject. */
    @Command(
            name = "register",
            mixinStandardHelpOptions = true,
            description = "Registers the schemas of every topic (subjects <topic>-value and <topic>-key), and the row "
                    + "schema of each table of sink.extra.tables under <row topic>-value: on a new subject, sets "
                    + "compatibility " + SchemaSubjects.COMPATIBILITY + " and registers each kept version of schemas/ "
                    + "oldest first; on an existing one, checks every version against this application's schema "
                    + "(both directions) and registers it if missing. A version holding the schema only in the Java "
                    + "flavour of earlier releases is replaced by the published text (its id stays readable, kept "
                    + "under <subject>" + SchemaSubjects.SUPERSEDED_SUFFIX + "). Running it twice is harmless.")
    static final class Register implements Callable<Integer> {

        @Mixin
        ConfigOptions config;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            IngestConfig cfg = config.load();
            SchemaRegistryClient registry = registry(cfg);
            PrintWriter out = spec.commandLine().getOut();
            List<SchemaSubjects.Subject> subjects = RegistrySubjects.all(cfg);
            for (SchemaSubjects.Subject subject : subjects) {
                // all first, as run does: a subject that does not fit changes nothing
                SchemaSubjects.check(registry, subject);
            }
            for (SchemaSubjects.Subject subject : subjects) {
                print(out, SchemaSubjects.register(registry, subject));
            }
            return 0;
        }
    }

    /** Checks every subject. */
    @Command(
            name = "check",
            mixinStandardHelpOptions = true,
            description = "Checks, without changing anything, that every subject's versions fit this application's "
                    + "schemas both directions (what 'run' checks at start), and whether each holds the published "
                    + "text of schemas/ or only the Java flavour of earlier releases (compared by Avro's parsing "
                    + "canonical form). Exit 1 if a subject lacks the published schema or holds a version that "
                    + "does not fit (the error names it).")
    static final class Check implements Callable<Integer> {

        @Mixin
        ConfigOptions config;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            IngestConfig cfg = config.load();
            SchemaRegistryClient registry = registry(cfg);
            PrintWriter out = spec.commandLine().getOut();
            int missing = 0;
            int javaFlavoured = 0;
            for (SchemaSubjects.Subject subject : RegistrySubjects.all(cfg)) {
                SchemaSubjects.Outcome outcome = SchemaSubjects.check(registry, subject);
                print(out, outcome);
                if (outcome.id() < 0 && outcome.equivalentId() < 0) {
                    missing++;
                } else if (outcome.id() < 0) {
                    javaFlavoured++;
                }
            }
            if (javaFlavoured > 0) {
                spec.commandLine()
                        .getErr()
                        .println("error: " + javaFlavoured + " subject(s) hold this application's schema only in the"
                                + " Java flavour of earlier releases, which clients looking up the published schemas"
                                + " do not find: run `ingest-app registry register` to migrate them");
            }
            if (missing > 0) {
                spec.commandLine()
                        .getErr()
                        .println("error: " + missing + " subject(s) lack this application's schema:"
                                + " run `ingest-app registry register`");
            }
            return missing + javaFlavoured > 0 ? 1 : 0;
        }
    }
}
