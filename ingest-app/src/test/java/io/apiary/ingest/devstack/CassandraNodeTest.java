package io.apiary.ingest.devstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CassandraNodeTest {

    private static final ServerRuntime RUNTIME = new ServerRuntime(
            Path.of("/jdk/bin/java"), "test", List.of(), List.of(Path.of("/m2/cassandra-all-5.0.7.jar")));

    @Test
    void should_seed_itself_and_keep_the_default_bootstrap_when_node_has_no_seed(@TempDir Path work)
            throws IOException {
        CassandraNode node = new CassandraNode(
                RUNTIME, LocalStackOptions.defaults(), work, work.resolve("watchdog"), 1111, 2222, 3333, 4444, null);

        node.prepare();

        assertThat(node.directory()).isEqualTo(work.resolve("cassandra"));
        assertThat(Files.readAllLines(work.resolve("cassandra/conf/cassandra.yaml")))
                .contains(
                        "      - seeds: \"127.0.0.1:2222\"",
                        "auto_bootstrap: true",
                        "storage_port: 2222",
                        "ssl_storage_port: 3333",
                        "native_transport_port: 1111");
        assertThat(node.storageAddress()).isEqualTo(new InetSocketAddress("127.0.0.1", 2222));
    }

    @Test
    void should_name_first_node_as_seed_and_skip_bootstrap_when_node_joins(@TempDir Path work) throws IOException {
        CassandraNode node = new CassandraNode(
                RUNTIME,
                LocalStackOptions.defaults(),
                work,
                work.resolve("watchdog"),
                "cassandra-2",
                "node 2",
                new InetSocketAddress("127.0.0.1", 7001),
                1112,
                2223,
                3334,
                4445,
                null);

        node.prepare();

        String yaml = Files.readString(work.resolve("cassandra-2/conf/cassandra.yaml"));
        assertThat(yaml)
                .contains(
                        "      - seeds: \"127.0.0.1:7001\"\n",
                        "auto_bootstrap: false\n",
                        "storage_port: 2223\n",
                        "native_transport_port: 1112\n",
                        work.resolve("cassandra-2/data").toString())
                .doesNotContain("${");
        assertThat(node.command()).contains("-Dcassandra.jmx.local.port=4445");
    }
}
