package io.apiary.ingest.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** The repository's deploy/ folder and its files, for the deploy/ tests. Stateless. */
final class DeployFolder {

    /** deploy/ seen from the module folder, where Maven runs the tests. */
    static final Path DEPLOY = Path.of("..", "deploy").toAbsolutePath().normalize();

    /** The folder of the components, relative to deploy/, with its separator. */
    private static final String COMPONENTS = "components/";

    private DeployFolder() {}

    /** @return every {@code *.yaml} and {@code *.yml} file under deploy/, relative to it, sorted */
    static Stream<String> yamlFiles() {
        return files().filter(file -> file.toString().matches(".*\\.ya?ml"))
                .map(DEPLOY::relativize)
                .map(Path::toString);
    }

    /**
     * @return every folder under deploy/ with a kustomization file of kind {@code Kustomization}
     *         (not a Component, which renders only inside an overlay), relative to deploy/, sorted,
     *         except those under {@code components/} ({@link #platformKustomizations()})
     */
    static Stream<String> kustomizations() {
        return files().filter(DeployFolder::isKustomization)
                .filter(file -> !StrictYaml.kustomization(
                                read(file), DEPLOY.relativize(file).toString())
                        .isComponent())
                .map(file -> DEPLOY.relativize(file.getParent()).toString())
                .filter(dir -> !dir.startsWith(COMPONENTS));
    }

    /**
     * @return every folder under {@code deploy/components/} with a kustomization file of kind
     *         {@code Kustomization}: objects of the platform a component connects to (such as the
     *         example CassandraDatacenter of components/cass-operator), applied apart by the team
     *         that runs it, not the application; relative to deploy/, sorted
     */
    static Stream<String> platformKustomizations() {
        return files().filter(DeployFolder::isKustomization)
                .filter(file -> !StrictYaml.kustomization(
                                read(file), DEPLOY.relativize(file).toString())
                        .isComponent())
                .map(file -> DEPLOY.relativize(file.getParent()).toString())
                .filter(dir -> dir.startsWith(COMPONENTS));
    }

    /** @return every folder under deploy/ with a kustomize Component, relative to deploy/, sorted */
    static Stream<String> components() {
        return files().filter(DeployFolder::isKustomization)
                .filter(file -> StrictYaml.kustomization(
                                read(file), DEPLOY.relativize(file).toString())
                        .isComponent())
                .map(file -> DEPLOY.relativize(file.getParent()).toString());
    }

    /**
     * @param file a file
     * @return whether kustomize reads it as a kustomization (by its name)
     */
    static boolean isKustomization(Path file) {
        return file.getFileName().toString().matches("kustomization\\.ya?ml|Kustomization");
    }

    /**
     * @param file a file
     * @return its text (UTF-8)
     * @throws UncheckedIOException when it cannot be read
     */
    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
    }

    /** @return every regular file under deploy/, sorted */
    static Stream<Path> files() {
        assertThat(DEPLOY)
                .as("deploy/ beside the module folder (run the tests from ingest-app)")
                .isDirectory();
        try (Stream<Path> walk = Files.walk(DEPLOY)) {
            return walk.filter(Files::isRegularFile).sorted().toList().stream();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + DEPLOY, e);
        }
    }
}
