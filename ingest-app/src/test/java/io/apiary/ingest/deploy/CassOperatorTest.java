package io.apiary.ingest.deploy;

import static io.apiary.ingest.deploy.DeployFolder.DEPLOY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.deploy.CassOperatorResources.CassandraDatacenter;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Cassandra run by cass-operator ({@code deploy/components/cass-operator}, in
 * {@code overlays/prod-operators}) against the example CassandraDatacenter
 * ({@code components/cass-operator/datacenter}, applied apart): the sink and the schema Job
 * connect to the Service cass-operator makes for that datacenter, with its datacenter name, and
 * log in with the superuser Secret it makes; the schema Job's replication names that datacenter
 * within its size; the plain overlays keep their own contact points and Secrets. The datacenter
 * is read strictly by {@link CassOperatorResources} (a hand-written model: cass-operator publishes
 * no Java one).
 */
class CassOperatorTest {

    private static final String OVERLAY = "overlays/prod-operators";
    private static final String DATACENTER = "components/cass-operator/datacenter";
    /** {@code 'dc1': 3} in the schema Job's --replication. */
    private static final Pattern REPLICATION = Pattern.compile("'([^']+)'\\s*:\\s*'?([0-9]+)'?");

    private static RenderedManifests rendered(String dir) {
        return RenderedManifests.render(DEPLOY.resolve(dir));
    }

    /** @return the example datacenter, as rendered into its namespace */
    static CassandraDatacenter datacenter() {
        List<CassandraDatacenter> datacenters = CassOperatorResources.datacenters(rendered(DATACENTER));
        assertThat(datacenters).as("CassandraDatacenters of %s", DATACENTER).hasSize(1);
        CassandraDatacenter dc = datacenters.get(0);
        assertThat(dc.metadata().getNamespace())
                .as("%s: the datacenter's namespace (part of its Service's DNS name)", DATACENTER)
                .isNotBlank();
        return dc;
    }

    /** @return the name of the superuser Secret cass-operator makes for the example datacenter */
    static String superuserSecret() {
        return datacenter().superuserSecretName();
    }

    /** The sink and the schema Job of the operators' overlay: the containers that talk to Cassandra. */
    private static List<PodContainer> cassandraClients(RenderedManifests rendered) {
        List<PodContainer> clients = rendered.containers().stream()
                .filter(c -> (c.workload() instanceof Deployment d
                                && d.getMetadata().getName().equals("apiary-ingest-sink"))
                        || (c.workload() instanceof Job j
                                && j.getMetadata().getName().equals("apiary-ingest-schema")))
                .toList();
        assertThat(clients).as("the sink and the schema Job of %s", OVERLAY).hasSize(2);
        return clients;
    }

    private static String secretKey(PodContainer container, String variable) {
        return container.container().getEnv().stream()
                .filter(env -> env.getName().equals(variable))
                .map(EnvVar::getValueFrom)
                .filter(from -> from != null && from.getSecretKeyRef() != null)
                .map(from -> from.getSecretKeyRef().getName() + "/"
                        + from.getSecretKeyRef().getKey())
                .findFirst()
                .orElseThrow(() -> new AssertionError(container.where() + ": " + variable + " not from a Secret"));
    }

    @Test
    void should_connect_to_the_service_cass_operator_makes_for_the_datacenter() {
        CassandraDatacenter dc = datacenter();
        String expected = dc.serviceName() + "." + dc.metadata().getNamespace() + ".svc.cluster.local:"
                + CassOperatorResources.NATIVE_PORT;
        assertThat(dc.serviceName()).isEqualTo("cassandra-dc1-service");
        for (PodContainer container : cassandraClients(rendered(OVERLAY))) {
            assertThat(List.of(container
                            .setting(IngestConfig.CASSANDRA_CONTACT_POINTS)
                            .split(",")))
                    .as(
                            "%s: cassandra.contact.points against <clusterName>-<dc>-service.<namespace> of %s",
                            container.where(), DATACENTER)
                    .containsExactly(expected);
            assertThat(container.setting(IngestConfig.CASSANDRA_LOCAL_DATACENTER))
                    .as("%s: cassandra.local.datacenter against the datacenter's name", container.where())
                    .isEqualTo(dc.datacenterName());
        }
    }

    @Test
    void should_log_in_with_the_superuser_secret_cass_operator_makes() {
        String secret = superuserSecret();
        assertThat(secret).isEqualTo("cassandra-superuser");
        for (PodContainer container : cassandraClients(rendered(OVERLAY))) {
            assertThat(secretKey(container, "APIARY_CASSANDRA_AUTH_USERNAME")).isEqualTo(secret + "/username");
            assertThat(secretKey(container, "APIARY_CASSANDRA_AUTH_PASSWORD")).isEqualTo(secret + "/password");
        }
    }

    @Test
    void should_replicate_the_keyspace_in_the_datacenter_within_its_size() {
        CassandraDatacenter dc = datacenter();
        PodContainer schema = cassandraClients(rendered(OVERLAY)).stream()
                .filter(c -> c.workload() instanceof Job)
                .findFirst()
                .orElseThrow();
        String replication = PodContainer.option(schema.args(), "--replication")
                .orElseThrow(() -> new AssertionError(schema.where() + ": no --replication"));
        Map<String, Integer> factors = new TreeMap<>();
        Matcher matcher = REPLICATION.matcher(replication);
        while (matcher.find()) {
            if (!matcher.group(1).equals("class")) {
                factors.put(matcher.group(1), Integer.parseInt(matcher.group(2)));
            }
        }
        assertThat(factors)
                .as("%s: --replication %s against the datacenter %s", schema.where(), replication, dc.datacenterName())
                .containsOnlyKeys(dc.datacenterName());
        assertThat(factors.get(dc.datacenterName()))
                .as("replication factor against the datacenter's size")
                .isBetween(1, dc.spec().size());
        if (dc.spec().racks() != null && !dc.spec().racks().isEmpty()) {
            assertThat(dc.spec().size() % dc.spec().racks().size())
                    .as("nodes spread evenly over the racks")
                    .isZero();
        }
    }

    @Test
    void should_keep_the_datacenter_out_of_the_applications_overlays() {
        for (String dir : DeployFolder.kustomizations().toList()) {
            assertThat(CassOperatorResources.datacenters(rendered(dir)))
                    .as("%s: CassandraDatacenters (the platform's, applied apart from %s)", dir, DATACENTER)
                    .isEmpty();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"overlays/dev", "overlays/prod"})
    void should_leave_the_plain_overlays_on_their_own_cassandra_settings(String dir) {
        String superuser = superuserSecret();
        for (PodContainer container : rendered(dir).containers()) {
            assertThat(container.container().getEnv())
                    .extracting(EnvVar::getName)
                    .as("%s: cass-operator's contact points", container.where())
                    .doesNotContain("APIARY_CASSANDRA_CONTACT_POINTS");
            assertThat(container.container().getEnv())
                    .as("%s: the superuser Secret", container.where())
                    .noneMatch(env -> env.getValueFrom() != null
                            && env.getValueFrom().getSecretKeyRef() != null
                            && env.getValueFrom().getSecretKeyRef().getName().equals(superuser));
        }
    }

    /** A CassandraDatacenter's first lines, up to and including {@code spec.size}, for the cases that add a field. */
    private static final String DATACENTER_SPEC_START = """
            apiVersion: cassandra.datastax.com/v1beta1
            kind: CassandraDatacenter
            metadata: {name: dc1}
            spec:
              clusterName: cassandra
              serverType: cassandra
              serverVersion: "5.0.7"
              size: 3
            """;

    @Test
    void should_fail_naming_the_field_when_a_datacenter_has_one_cass_operator_does_not_define() {
        String misspelt = DATACENTER_SPEC_START + "  storgeConfig: {}\n";
        assertThatThrownBy(() -> StrictYaml.kubernetesObjects(misspelt, "inline"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("storgeConfig");

        String claim = DATACENTER_SPEC_START + """
                  storageConfig:
                    cassandraDataVolumeClaimSpec:
                      accesModes: ["ReadWriteOnce"]
                """;
        assertThatThrownBy(() -> StrictYaml.kubernetesObjects(claim, "inline"))
                .as("a misspelt field inside a Kubernetes type of the spec")
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("accesModes");

        String type = misspelt.replace("storgeConfig", "storageConfig")
                .replace("serverType: cassandra", "serverType: scylla");
        assertThatThrownBy(() -> StrictYaml.kubernetesObjects(type, "inline"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("scylla");
    }

    @Test
    void should_name_objects_as_cass_operator_does_when_the_cluster_name_is_not_a_dns_label() {
        assertThat(CassOperatorResources.cleanupForKubernetes("cassandra")).isEqualTo("cassandra");
        assertThat(CassOperatorResources.cleanupForKubernetes("Apiary_Cluster")).isEqualTo("apiary-cluster");
        assertThat(CassOperatorResources.cleanupForKubernetes("Test Cluster")).isEqualTo("testcluster");
    }
}
