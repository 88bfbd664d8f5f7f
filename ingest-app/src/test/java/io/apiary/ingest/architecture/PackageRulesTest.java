package io.apiary.ingest.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package rules of the application's main code (ArchUnit over the compiled classes). The
 * packages stand in four layers, each importing only from its own and the ones below:
 *
 * <ol>
 *   <li><b>foundation</b>: identity, bucket, serde, metrics, logging, tables, topics, deadletter,
 *       validation, config (and the generated {@code io.apiary.schema} classes);
 *   <li><b>runtime</b>: cassandra, topology, sink, pipeline, service: what the image runs;
 *   <li><b>tools</b>: read, report, partitionsize, tablecopy, importer, simulator, dump, devstack, demo,
 *       bench;
 *   <li><b>command line</b>: cli, which composes the others.
 * </ol>
 *
 * <p>The foundation and the runtime are the module {@code ingest-runtime}, the tools and the
 * command line {@code ingest-app}; and no two packages depend on each other, directly or around a loop. A rule broken names the
 * classes and the dependency that breaks it; docs/contributing.md says where a new
 * package goes.
 */
class PackageRulesTest {

    private static final String ROOT = "io.apiary.ingest";
    private static final String[] FOUNDATION = {
        "identity", "bucket", "serde", "metrics", "logging", "tables", "topics", "deadletter", "validation", "config"
    };
    private static final String[] RUNTIME = {"cassandra", "topology", "sink", "pipeline", "service"};
    private static final String[] TOOLS = {
        "read", "report", "partitionsize", "tablecopy", "importer", "simulator", "dump", "devstack", "demo", "bench"
    };

    /** The compiled main classes of the two modules (run from ingest-app, as Maven runs tests). */
    private static final java.nio.file.Path APP_CLASSES = java.nio.file.Path.of("target", "classes");

    private static final java.nio.file.Path RUNTIME_CLASSES =
            java.nio.file.Path.of("..", "ingest-runtime", "target", "classes");

    private static JavaClasses classes;
    private static JavaClasses runtimeModule;
    private static JavaClasses appModule;

    @BeforeAll
    static void importClasses() {
        // by path, not by package from the class path: in a reactor build ingest-runtime is a jar there
        runtimeModule = new ClassFileImporter().importPath(RUNTIME_CLASSES);
        appModule = new ClassFileImporter().importPath(APP_CLASSES);
        classes = new ClassFileImporter().importPaths(APP_CLASSES, RUNTIME_CLASSES);
    }

    private static java.util.Set<String> topPackages(JavaClasses of) {
        java.util.Set<String> found = new java.util.TreeSet<>();
        of.forEach(c -> {
            if (c.getPackageName().startsWith(ROOT)) {
                String rest = c.getPackageName().substring(ROOT.length()).replaceFirst("^\\.", "");
                found.add(rest.contains(".") ? rest.substring(0, rest.indexOf('.')) : rest);
            }
        });
        found.remove("");
        return found;
    }

    @Test
    void the_runtime_module_holds_the_foundation_and_the_runtime_and_ingest_app_the_rest() {
        java.util.Set<String> runtime = new java.util.HashSet<>(java.util.List.of(FOUNDATION));
        runtime.addAll(java.util.List.of(RUNTIME));
        org.assertj.core.api.Assertions.assertThat(topPackages(runtimeModule))
                .as("packages of ingest-runtime")
                .isEqualTo(new java.util.TreeSet<>(runtime));
        java.util.Set<String> tools = new java.util.HashSet<>(java.util.List.of(TOOLS));
        tools.add("cli");
        org.assertj.core.api.Assertions.assertThat(topPackages(appModule))
                .as("packages of ingest-app")
                .isEqualTo(new java.util.TreeSet<>(tools));
    }

    private static String[] packages(String[]... layers) {
        return java.util.Arrays.stream(layers)
                .flatMap(java.util.Arrays::stream)
                .map(p -> ROOT + "." + p + "..")
                .toArray(String[]::new);
    }

    @Test
    void every_package_is_in_a_layer() {
        java.util.Set<String> known = new java.util.HashSet<>();
        for (String[] layer : new String[][] {FOUNDATION, RUNTIME, TOOLS, {"cli"}}) {
            known.addAll(java.util.List.of(layer));
        }
        java.util.Set<String> found = topPackages(classes);
        org.assertj.core.api.Assertions.assertThat(known)
                .as("a new package needs a layer in PackageRulesTest")
                .containsAll(found);
        org.assertj.core.api.Assertions.assertThat(found).as("classes imported").hasSizeGreaterThan(20);
    }

    @Test
    void no_package_cycles() {
        slices().matching(ROOT + ".(*)..").should().beFreeOfCycles().check(classes);
    }

    @Test
    void the_foundation_imports_nothing_above_it() {
        noClasses()
                .that()
                .resideInAnyPackage(packages(FOUNDATION))
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(packages(RUNTIME, TOOLS, new String[] {"cli"}))
                .check(classes);
    }

    @Test
    void the_runtime_imports_no_tool_and_no_command() {
        noClasses()
                .that()
                .resideInAnyPackage(packages(RUNTIME))
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(packages(TOOLS, new String[] {"cli"}))
                .check(classes);
    }

    @Test
    void only_the_command_line_imports_the_command_line() {
        noClasses()
                .that()
                .resideInAnyPackage(packages(FOUNDATION, RUNTIME, TOOLS))
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(packages(new String[] {"cli"}))
                .check(classes);
    }
}
