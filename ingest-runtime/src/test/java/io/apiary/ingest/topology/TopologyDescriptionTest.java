package io.apiary.ingest.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiary.ingest.config.ConfigLoader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The topology's description (processors, stores, topics and their names) is committed in
 * {@code src/test/resources/topology/topology-description.txt}. Renaming a processor or a store
 * changes the names of internal topics and of the state a deployed application has to restore, so
 * a change must be deliberate: regenerate the file with
 * {@code ./mvnw test -Dtest=TopologyDescriptionTest -Dapiary.topology.update=true} and commit it.
 */
class TopologyDescriptionTest {

    private static final Path COMMITTED = Path.of("src", "test", "resources", "topology", "topology-description.txt");

    @Test
    void should_match_the_committed_description() throws IOException {
        String actual = IngestTopology.build(TopologySettings.from(
                        ConfigLoader.load(null, Map.of(), TopologyFixture.singleObject(Map.of()))))
                .describe()
                .toString();
        if (Boolean.getBoolean("apiary.topology.update")) {
            Files.writeString(COMMITTED, actual, StandardCharsets.UTF_8);
        }
        assertThat(actual)
                .as("the topology changed; if that is intended, regenerate %s (see this test's javadoc)", COMMITTED)
                .isEqualTo(Files.readString(COMMITTED, StandardCharsets.UTF_8));
    }

    @Test
    void should_name_every_processor_and_store() {
        String description = IngestTopology.build(TopologySettings.from(
                        ConfigLoader.load(null, Map.of(), TopologyFixture.singleObject(Map.of()))))
                .describe()
                .toString();
        assertThat(description)
                .doesNotContainPattern("KSTREAM-[A-Z]+-\\d{10}")
                .doesNotContainPattern("KTABLE-")
                .doesNotContain("-repartition");
    }
}
