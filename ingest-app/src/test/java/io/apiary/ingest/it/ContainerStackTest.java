package io.apiary.ingest.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.dockerjava.api.command.InspectContainerResponse;
import com.sun.net.httpserver.HttpServer;
import io.apiary.ingest.serde.RegistrySettings;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.ContainerLaunchException;
import org.testcontainers.containers.wait.strategy.WaitStrategy;
import org.testcontainers.containers.wait.strategy.WaitStrategyTarget;
import org.w3c.dom.Document;

/**
 * The container stack's wiring, checked without a Docker engine: the containers are built, never
 * started. The expected versions come from the poms themselves, not from the filtered resource the
 * wiring reads.
 */
class ContainerStackTest {

    private static final Path REGISTRY_POM = Path.of("devstack/registry-server/pom.xml");
    private static final Path PARENT_POM = Path.of("../pom.xml");

    @Test
    void auto_blank_and_local_choose_the_local_stack_and_containers_are_opt_in() {
        assertThat(SharedStack.kindFor("auto")).isEqualTo("local");
        assertThat(SharedStack.kindFor(null)).isEqualTo("local");
        assertThat(SharedStack.kindFor(" ")).isEqualTo("local");
        assertThat(SharedStack.kindFor("Local")).isEqualTo("local");
        assertThat(SharedStack.kindFor("testcontainers")).isEqualTo("testcontainers");
        assertThatThrownBy(() -> SharedStack.kindFor("docker"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("apiary.it.stack=docker")
                .hasMessageContaining("auto, local or testcontainers");
    }

    @Test
    void the_build_default_of_the_stack_property_is_auto() throws Exception {
        assertThat(pomValue(Path.of("pom.xml"), "/project/properties/apiary.it.stack"))
                .isEqualTo("auto");
    }

    @Test
    void images_run_the_releases_of_the_local_stack() throws Exception {
        ContainerWiring wiring = ContainerWiring.load();

        String registryVersion = pomValue(REGISTRY_POM, "/project/properties/apicurio.version");
        assertThat(wiring.registryVersion()).isEqualTo(registryVersion);
        assertThat(wiring.registryImage()).endsWith(":" + registryVersion);
        assertThat(wiring.kafkaImage())
                .isEqualTo("apache/kafka:" + pomValue(PARENT_POM, "/project/properties/kafka.version"));
        assertThat(wiring.cassandraImage())
                .isEqualTo("cassandra:" + pomValue(PARENT_POM, "/project/properties/cassandra-server.version"));
    }

    @Test
    void a_2_x_registry_runs_the_in_memory_image_with_the_v6_confluent_api() {
        ContainerWiring wiring = new ContainerWiring("4.4.0", "5.0.7", "2.6.13.Final");

        assertThat(wiring.registryImage()).isEqualTo("apicurio/apicurio-registry-mem:2.6.13.Final");
        assertThat(wiring.registryConfluentApiPath()).isEqualTo("/apis/ccompat/v6");
        assertThat(wiring.registryReadyPath()).isEqualTo("/apis/ccompat/v6/subjects");
    }

    @Test
    void a_3_x_registry_runs_the_single_image_with_the_v7_confluent_api() {
        ContainerWiring wiring = new ContainerWiring("4.4.0", "5.0.7", "3.1.2");

        assertThat(wiring.registryImage()).isEqualTo("apicurio/apicurio-registry:3.1.2");
        assertThat(wiring.registryReadyPath()).isEqualTo("/apis/ccompat/v7/subjects");
        assertThat(wiring.registryUrl("localhost", 32801)).isEqualTo("http://localhost:32801/apis/ccompat/v7");
    }

    @Test
    void a_registry_release_without_a_known_image_is_refused() {
        assertThatThrownBy(() -> new ContainerWiring("4.4.0", "5.0.7", "1.3.2.Final"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1.3.2.Final");
        assertThatThrownBy(() -> new ContainerWiring("4.4.0", "5.0.7", "latest"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("latest");
    }

    @Test
    void the_three_containers_share_one_network_under_their_aliases_with_their_ports() {
        ContainerStack stack = new ContainerStack(new ContainerWiring("4.4.0", "5.0.7", "2.1.5.Final"));

        assertThat(stack.kafka().getNetwork()).isSameAs(stack.network());
        assertThat(stack.cassandra().getNetwork()).isSameAs(stack.network());
        assertThat(stack.registry().getNetwork()).isSameAs(stack.network());
        assertThat(stack.kafka().getNetworkAliases()).contains(ContainerWiring.KAFKA_ALIAS);
        assertThat(stack.cassandra().getNetworkAliases()).contains(ContainerWiring.CASSANDRA_ALIAS);
        assertThat(stack.registry().getNetworkAliases()).contains(ContainerWiring.REGISTRY_ALIAS);
        assertThat(stack.kafka().getExposedPorts()).contains(9092);
        assertThat(stack.cassandra().getExposedPorts()).contains(9042);
        assertThat(stack.registry().getExposedPorts()).containsExactly(8080);
        assertThat(stack.registry().getEnvMap()).containsEntry("QUARKUS_HTTP_PORT", "8080");
    }

    @Test
    void the_tests_get_the_registry_url_so_they_use_the_default_registry_framing() {
        ContainerStack stack = new ContainerStack(new ContainerWiring("4.4.0", "5.0.7", "2.1.5.Final"));

        ItEndpoints endpoints = stack.endpoints(
                "localhost:32790", InetSocketAddress.createUnresolved("localhost", 32791), "dc1", "localhost", 32792);

        assertThat(endpoints.kind()).isEqualTo("testcontainers");
        assertThat(endpoints.registryUrl()).hasValue("http://localhost:32792/apis/ccompat/v6");
        assertThat(endpoints.registrySettings())
                .containsExactly(Map.entry(RegistrySettings.REGISTRY_URL, "http://localhost:32792/apis/ccompat/v6"));
        assertThat(endpoints.clientSettings()).doesNotContainKey(RegistrySettings.WIRE_FORMAT_WRITE);
        assertThat(endpoints.kafkaBootstrapServers()).isEqualTo("localhost:32790");
        assertThat(endpoints.cassandraContactPointSetting()).isEqualTo("localhost:32791");
        assertThat(endpoints.localStack()).isEmpty();
    }

    @Test
    void the_registry_is_ready_once_its_subject_list_answers_200() throws Exception {
        ContainerWiring wiring = new ContainerWiring("4.4.0", "5.0.7", "2.1.5.Final");
        HttpServer server = registryAnsweringOn("/apis/ccompat/v6/subjects");
        try {
            int port = server.getAddress().getPort();
            WaitStrategy ready = ContainerStack.registryReady(wiring).withStartupTimeout(Duration.ofSeconds(10));
            ready.waitUntilReady(target(ContainerWiring.REGISTRY_PORT, port));

            WaitStrategy wrongPort = ContainerStack.registryReady(wiring).withStartupTimeout(Duration.ofSeconds(2));
            assertThatThrownBy(() -> wrongPort.waitUntilReady(target(9999, port)))
                    .isInstanceOf(RuntimeException.class);
        } finally {
            server.stop(0);
        }
    }

    @Test
    void a_registry_that_answers_404_on_its_subject_list_is_not_ready() throws Exception {
        ContainerWiring v7 = new ContainerWiring("4.4.0", "5.0.7", "3.1.2");
        HttpServer server = registryAnsweringOn("/apis/ccompat/v6/subjects");
        try {
            WaitStrategy ready = ContainerStack.registryReady(v7).withStartupTimeout(Duration.ofSeconds(2));
            assertThatThrownBy(() -> ready.waitUntilReady(target(
                            ContainerWiring.REGISTRY_PORT, server.getAddress().getPort())))
                    .isInstanceOf(ContainerLaunchException.class);
        } finally {
            server.stop(0);
        }
    }

    /** @return a started HTTP server on a loopback port answering 200 on {@code path}, 404 elsewhere */
    private static HttpServer registryAnsweringOn(String path) throws java.io.IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            exchange.sendResponseHeaders(exchange.getRequestURI().getPath().equals(path) ? 200 : 404, -1);
            exchange.close();
        });
        server.start();
        return server;
    }

    /** A container as a wait strategy sees it: one exposed port, mapped to a loopback port. */
    private static WaitStrategyTarget target(int exposedPort, int mappedPort) {
        return new WaitStrategyTarget() {
            @Override
            public List<Integer> getExposedPorts() {
                return List.of(exposedPort);
            }

            @Override
            public InspectContainerResponse getContainerInfo() {
                return new InspectContainerResponse();
            }

            @Override
            public String getHost() {
                return InetAddress.getLoopbackAddress().getHostAddress();
            }

            @Override
            public Integer getMappedPort(int originalPort) {
                if (originalPort != exposedPort) {
                    throw new IllegalArgumentException("Port " + originalPort + " is not exposed");
                }
                return mappedPort;
            }
        };
    }

    private static String pomValue(Path pom, String xpath) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        Document document = factory.newDocumentBuilder().parse(pom.toFile());
        String value =
                XPathFactory.newInstance().newXPath().evaluate(xpath, document).trim();
        assertThat(value).as(xpath + " in " + pom.toAbsolutePath()).isNotEmpty();
        return value;
    }
}
