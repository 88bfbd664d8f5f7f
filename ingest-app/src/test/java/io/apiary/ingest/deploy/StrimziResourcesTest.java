package io.apiary.ingest.deploy;

import static io.apiary.ingest.deploy.DeployFolder.DEPLOY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.deploy.StrimziResources.KafkaTopic;
import io.apiary.ingest.deploy.StrimziResources.KafkaUser;
import io.apiary.ingest.topics.Topics;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.api.model.SecretVolumeSource;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Kafka run by Strimzi ({@code deploy/components/strimzi}, in {@code overlays/prod-operators})
 * against the application's code and its rendered settings: the KafkaTopics are exactly the
 * pipeline's topics ({@link Topics#all()}) with the partitions, replication and configs that
 * {@code topics create} would give them ({@link Topics#TOPIC_CONFIGS}); each component's KafkaUser
 * grants exactly the ACLs it needs for the group, transactional ids and topics it really uses, and
 * nothing broad; KEDA's lag reader has a user of its own with Describe only, on the sink's group and
 * row topics; the pods connect to the cluster the resources are labelled for, as their own user,
 * trusting the cluster CA, and read no Secret that neither Strimzi nor cass-operator makes (beyond
 * the Cassandra truststore, named); the plain overlays hold no Strimzi object. Every Strimzi object
 * is read by Strimzi's own API model first ({@link StrimziModel}).
 */
class StrimziResourcesTest {

    private static final String OVERLAY = "overlays/prod-operators";
    private static final String TOPOLOGY = "apiary-ingest-topology";
    private static final String SINK = "apiary-ingest-sink";
    /** The KafkaUser KEDA's Kafka scaler reads the sink group's lag as (not a workload's). */
    private static final String KEDA = "apiary-ingest-keda";

    /** A DNS-1123 label: what Strimzi advises for KafkaTopic and KafkaUser names (and Secrets named after users). */
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    /** Strimzi's bootstrap Service of cluster {@code <cluster>} in namespace {@code <ns>}: {@code <cluster>-kafka-bootstrap.<ns>.svc}. */
    private static final Pattern BOOTSTRAP =
            Pattern.compile("([a-z0-9-]+)-kafka-bootstrap\\.([a-z0-9-]+)\\.svc(\\.cluster\\.local)?:([0-9]+)");
    /** Strimzi's port of its internal tls listener, the one the components use. */
    private static final String TLS_LISTENER_PORT = "9093";

    private static final Set<String> READ = Set.of("Describe", "Read");
    private static final Set<String> WRITE = Set.of("Describe", "Write");
    private static final Set<String> DESCRIBE = Set.of("Describe");

    private static RenderedManifests rendered(String dir) {
        return RenderedManifests.render(DEPLOY.resolve(dir));
    }

    private static PodContainer pipelineContainer(RenderedManifests rendered, Class<?> kind, String name) {
        return rendered.containers().stream()
                .filter(c -> kind.isInstance(c.workload())
                        && c.workload().getMetadata().getName().equals(name)
                        && c.runsPipeline())
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + name + " container in the rendered " + OVERLAY));
    }

    private static PodContainer topology(RenderedManifests rendered) {
        return pipelineContainer(rendered, StatefulSet.class, TOPOLOGY);
    }

    private static PodContainer sink(RenderedManifests rendered) {
        return pipelineContainer(rendered, Deployment.class, SINK);
    }

    private static IngestConfig config(PodContainer container) {
        return new IngestConfig(container.settings());
    }

    /** The Strimzi cluster (Kafka resource name) of a container's bootstrap Service. */
    private static String cluster(PodContainer container) {
        Matcher matcher = BOOTSTRAP.matcher(container.setting(IngestConfig.KAFKA_BOOTSTRAP_SERVERS));
        assertThat(matcher.matches())
                .as(
                        "%s: kafka.bootstrap.servers %s against Strimzi's bootstrap Service <cluster>-kafka-bootstrap.<namespace>.svc:<port>",
                        container.where(), container.setting(IngestConfig.KAFKA_BOOTSTRAP_SERVERS))
                .isTrue();
        return matcher.group(1);
    }

    /** The Secret a container's setting comes from, as {@code name/key}; fails when it is not from a Secret. */
    private static String secretOf(PodContainer container, String option) {
        String variable = "APIARY_" + option.toUpperCase(java.util.Locale.ROOT).replace('.', '_');
        SecretKeySelector ref = container.container().getEnv().stream()
                .filter(env -> env.getName().equals(variable)
                        && env.getValueFrom() != null
                        && env.getValueFrom().getSecretKeyRef() != null)
                .map(env -> env.getValueFrom().getSecretKeyRef())
                .findFirst()
                .orElseThrow(() -> new AssertionError(container.where() + ": " + option + " not from a Secret"));
        return ref.getName() + "/" + ref.getKey();
    }

    private static KafkaUser user(RenderedManifests rendered, String name) {
        return StrimziResources.users(rendered).stream()
                .filter(u -> u.metadata().name().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no rendered KafkaUser " + name + " in " + OVERLAY));
    }

    @Test
    void should_declare_exactly_the_pipelines_topics_with_the_provisioners_partitions_replicas_and_configs() {
        RenderedManifests rendered = rendered(OVERLAY);
        PodContainer topology = topology(rendered);
        List<String> expected = config(topology).topics().all();
        assertThat(config(sink(rendered)).topics().all())
                .as("the sink's topic names against the topology's")
                .isEqualTo(expected);
        List<KafkaTopic> topics = StrimziResources.topics(rendered);

        assertThat(topics)
                .extracting(KafkaTopic::topicName)
                .as("KafkaTopics of %s against Topics.all() (what topics create makes)", OVERLAY)
                .containsExactlyInAnyOrderElementsOf(expected);
        long partitions = topology.longSetting(IngestConfig.TOPIC_PARTITIONS);
        long replication = topology.longSetting(IngestConfig.TOPIC_REPLICATION_FACTOR);
        Map<String, String> configs = new TreeMap<>(Topics.TOPIC_CONFIGS);
        for (KafkaTopic topic : topics) {
            String what = "KafkaTopic " + topic.metadata().name() + " (" + topic.topicName() + ")";
            assertThat(topic.spec().partitions())
                    .as("%s: partitions against topic.partitions", what)
                    .isNotNull()
                    .isEqualTo((int) partitions);
            if (replication < 0) {
                assertThat(topic.spec().replicas())
                        .as("%s: replicas, with topic.replication.factor -1 (the broker's default)", what)
                        .isNull();
            } else {
                assertThat(topic.spec().replicas())
                        .as("%s: replicas against topic.replication.factor", what)
                        .isNotNull()
                        .isEqualTo((int) replication);
            }
            Map<String, String> declared = new TreeMap<>();
            (topic.spec().config() == null
                            ? Map.<String, Object>of()
                            : topic.spec().config())
                    .forEach((key, value) -> declared.put(key, String.valueOf(value)));
            assertThat(declared)
                    .as("%s: config against Topics.TOPIC_CONFIGS (what topics create sets)", what)
                    .isEqualTo(configs);
        }
    }

    @Test
    void should_name_every_topic_resource_as_kubernetes_allows_and_the_topic_in_topic_name() {
        for (KafkaTopic topic : StrimziResources.topics(rendered(OVERLAY))) {
            assertThat(topic.metadata().name())
                    .as("KafkaTopic name of %s: a DNS label", topic.topicName())
                    .matches(DNS_LABEL);
            if (!DNS_LABEL.matcher(topic.topicName()).matches()) {
                assertThat(topic.spec().topicName())
                        .as(
                                "KafkaTopic %s: a topic name with '.' or '_' needs spec.topicName",
                                topic.metadata().name())
                        .isNotNull();
            }
        }
    }

    @Test
    void should_tie_topics_and_users_to_the_cluster_whose_tls_listener_the_pods_use() {
        RenderedManifests rendered = rendered(OVERLAY);
        PodContainer topology = topology(rendered);
        PodContainer sink = sink(rendered);
        String cluster = cluster(topology);
        assertThat(cluster(sink))
                .as("the sink's cluster against the topology's")
                .isEqualTo(cluster);
        assertThat(sink.setting(IngestConfig.KAFKA_BOOTSTRAP_SERVERS))
                .isEqualTo(topology.setting(IngestConfig.KAFKA_BOOTSTRAP_SERVERS));

        List<StrimziResources.Meta> labelled = new ArrayList<>();
        StrimziResources.topics(rendered).forEach(t -> labelled.add(t.metadata()));
        StrimziResources.users(rendered).forEach(u -> labelled.add(u.metadata()));
        assertThat(labelled).isNotEmpty();
        for (StrimziResources.Meta meta : labelled) {
            assertThat(meta.labels())
                    .as("%s: its cluster label against the cluster of kafka.bootstrap.servers", meta.name())
                    .containsEntry(StrimziResources.CLUSTER_LABEL, cluster);
        }
        for (PodContainer container : List.of(topology, sink)) {
            assertThat(container.setting(IngestConfig.KAFKA_BOOTSTRAP_SERVERS))
                    .as("%s: Strimzi's tls listener", container.where())
                    .endsWith(":" + TLS_LISTENER_PORT);
            assertThat(container.settings())
                    .as(container.where())
                    .containsEntry("kafka.security.protocol", "SASL_SSL")
                    .containsEntry("kafka.sasl.mechanism", "SCRAM-SHA-512")
                    .containsEntry("kafka.ssl.truststore.type", "PKCS12");
            assertThat(secretOf(container, "kafka.ssl.truststore.password"))
                    .as("%s: the truststore password", container.where())
                    .isEqualTo(cluster + "-cluster-ca-cert/ca.password");
            assertThat(fileSource(container, container.settings().get("kafka.ssl.truststore.location")))
                    .as("%s: the truststore file", container.where())
                    .isEqualTo(cluster + "-cluster-ca-cert/ca.p12");
        }
    }

    /** The Secret key a file of the container comes from, as {@code name/key}: a mounted secret volume's item. */
    private static String fileSource(PodContainer container, String path) {
        for (VolumeMount mount : container.container().getVolumeMounts()) {
            if (!path.startsWith(mount.getMountPath() + "/")) {
                continue;
            }
            String file = path.substring(mount.getMountPath().length() + 1);
            Volume volume = container.template().getSpec().getVolumes().stream()
                    .filter(v -> v.getName().equals(mount.getName()))
                    .findFirst()
                    .orElseThrow();
            SecretVolumeSource secret = volume.getSecret();
            assertThat(secret)
                    .as("%s: volume %s of %s", container.where(), volume.getName(), path)
                    .isNotNull();
            assertThat(secret.getItems())
                    .as("%s: volume %s names its keys (items)", container.where(), volume.getName())
                    .isNotEmpty();
            return secret.getItems().stream()
                    .filter(item -> item.getPath().equals(file))
                    .map(item -> secret.getSecretName() + "/" + item.getKey())
                    .findFirst()
                    .orElseThrow(() -> new AssertionError(
                            container.where() + ": no key of Secret " + secret.getSecretName() + " at " + path));
        }
        throw new AssertionError(container.where() + ": no volume mounted at " + path);
    }

    @Test
    void should_connect_each_component_as_its_own_kafka_user() {
        RenderedManifests rendered = rendered(OVERLAY);
        Map<String, PodContainer> byUser = Map.of(TOPOLOGY, topology(rendered), SINK, sink(rendered));
        assertThat(StrimziResources.users(rendered))
                .extracting(u -> u.metadata().name())
                .as("one KafkaUser per component, and KEDA's")
                .containsExactlyInAnyOrder(TOPOLOGY, SINK, KEDA);
        assertThat(user(rendered, KEDA).spec().authentication().type()).isEqualTo("scram-sha-512");
        assertThat(user(rendered, KEDA).spec().authorization().type()).isEqualTo("simple");
        byUser.forEach((userName, container) -> {
            KafkaUser user = user(rendered, userName);
            assertThat(user.metadata().name()).matches(DNS_LABEL);
            assertThat(secretOf(container, "kafka.sasl.jaas.config"))
                    .as(
                            "%s: the JAAS configuration, from the Secret the User Operator makes for its user",
                            container.where())
                    .isEqualTo(userName + "/sasl.jaas.config");
            assertThat(user.spec().authentication().type())
                    .as("KafkaUser %s: authentication against kafka.sasl.mechanism", userName)
                    .isEqualTo("scram-sha-512");
            assertThat(user.spec().authorization().type()).isEqualTo("simple");
        });
    }

    @Test
    void should_grant_the_topology_exactly_what_kafka_streams_needs() {
        RenderedManifests rendered = rendered(OVERLAY);
        PodContainer topology = topology(rendered);
        IngestConfig config = config(topology);
        Topics topics = config.topics();
        String applicationId = config.getString(IngestConfig.TOPOLOGY_APPLICATION_ID);

        Map<String, Set<String>> expected = new TreeMap<>();
        expected.put("group " + applicationId + " (literal)", READ);
        if (config.getString(IngestConfig.TOPOLOGY_PROCESSING_GUARANTEE).startsWith("exactly_once")) {
            // transactional.id <application.id>-<process id>-<thread index> (Kafka Streams 4.x,
            // ActiveTaskCreator#producer): the prefix ends in '-', so that another application.id
            // starting with this one (<application.id>2) is not matched
            expected.put("transactionalId " + applicationId + "- (prefix)", WRITE);
        }
        // changelog and repartition topics: created at start, configs checked, repartition records purged
        expected.put(
                "topic " + applicationId + "- (prefix)",
                Set.of("Create", "Delete", "Describe", "DescribeConfigs", "Read", "Write"));
        List<String> inputs = List.of(topics.telemetry(), topics.entranceCounts(), topics.weather(), topics.alerts());
        inputs.forEach(topic -> expected.put("topic " + topic + " (literal)", READ));
        topics.all().stream()
                .filter(topic -> !inputs.contains(topic))
                .forEach(topic -> expected.put("topic " + topic + " (literal)", WRITE));

        assertThat(StrimziResources.aclsByResource(user(rendered, TOPOLOGY)))
                .as("ACLs of KafkaUser %s against the topology's settings (application.id, topics)", TOPOLOGY)
                .isEqualTo(expected);
    }

    @Test
    void should_grant_the_sink_exactly_its_group_its_row_topics_and_the_dead_letter_topic() {
        RenderedManifests rendered = rendered(OVERLAY);
        PodContainer sink = sink(rendered);
        IngestConfig config = config(sink);
        assertThat(config.getList(IngestConfig.SINK_EXTRA_TABLES))
                .as("sink.extra.tables: each registration's row topic needs a Read ACL and a KafkaTopic here")
                .isEmpty();

        Map<String, Set<String>> expected = new TreeMap<>();
        expected.put("group " + config.getString(IngestConfig.SINK_GROUP_ID) + " (literal)", READ);
        config.topics().rowTopics().forEach(topic -> expected.put("topic " + topic + " (literal)", READ));
        expected.put("topic " + config.topics().deadLetter() + " (literal)", WRITE);

        assertThat(StrimziResources.aclsByResource(user(rendered, SINK)))
                .as("ACLs of KafkaUser %s against the sink's settings (sink.group.id, row topics, dead letters)", SINK)
                .isEqualTo(expected);
    }

    @Test
    void should_grant_keda_only_describe_on_the_sinks_group_and_row_topics() {
        RenderedManifests rendered = rendered(OVERLAY);
        IngestConfig config = config(sink(rendered));

        // KEDA's Kafka scaler: OffsetFetch (Describe on the group and the topics), Metadata and
        // ListOffsets (Describe on the topics); no Read (joins, commits, records), no Write
        Map<String, Set<String>> expected = new TreeMap<>();
        expected.put("group " + config.getString(IngestConfig.SINK_GROUP_ID) + " (literal)", DESCRIBE);
        config.topics().rowTopics().forEach(topic -> expected.put("topic " + topic + " (literal)", DESCRIBE));

        assertThat(StrimziResources.aclsByResource(user(rendered, KEDA)))
                .as("ACLs of KafkaUser %s against the sink's settings (sink.group.id, row topics)", KEDA)
                .isEqualTo(expected);
    }

    @Test
    void should_grant_nothing_broad_when_declaring_acls() {
        for (KafkaUser user : StrimziResources.users(rendered(OVERLAY))) {
            for (StrimziResources.Acl acl : user.spec().authorization().acls()) {
                String what = "KafkaUser " + user.metadata().name() + ": " + acl.resource();
                assertThat(acl.type()).as("%s: rule type", what).isEqualTo("allow");
                assertThat(acl.host()).as("%s: host", what).isEqualTo("*");
                assertThat(acl.operations())
                        .as("%s: operations", what)
                        .isNotEmpty()
                        .doesNotContain("All");
                assertThat(acl.resource().type())
                        .as("%s: no cluster-wide rule (neither component calls a cluster API)", what)
                        .isNotEqualTo("cluster");
                assertThat(acl.resource().name())
                        .as("%s: name", what)
                        .isNotBlank()
                        .doesNotContain("*");
                assertThat(acl.resource().patternType())
                        .as("%s: pattern type", what)
                        .isIn("literal", "prefix");
            }
        }
    }

    @Test
    void should_read_only_secrets_the_operators_make_besides_the_cassandra_truststore_and_the_registry_login() {
        RenderedManifests rendered = rendered(OVERLAY);
        String cluster = cluster(topology(rendered));
        String ca = cluster + "-cluster-ca-cert";
        String cassandraSuperuser = CassOperatorTest.superuserSecret();
        // made apart for Cassandra's client TLS (cass-operator does not make a client truststore)
        Set<String> cassandraTls =
                Set.of("apiary-ingest-tls/cassandra-truststore.p12", "apiary-ingest-cassandra/ssl.truststore.password");
        Set<String> cassandra = new HashSet<>(cassandraTls);
        cassandra.add(cassandraSuperuser + "/username");
        cassandra.add(cassandraSuperuser + "/password");

        // the schema registry's HTTP credentials, made apart where it requires them (optional)
        String registry = "apiary-ingest-schema-registry/basic.auth.user.info";

        Map<String, Set<String>> allowed = new TreeMap<>();
        allowed.put(
                "StatefulSet " + TOPOLOGY,
                Set.of(TOPOLOGY + "/sasl.jaas.config", ca + "/ca.password", ca + "/ca.p12", registry));
        Set<String> sink =
                new HashSet<>(Set.of(SINK + "/sasl.jaas.config", ca + "/ca.password", ca + "/ca.p12", registry));
        sink.addAll(cassandra);
        allowed.put("Deployment " + SINK, sink);
        allowed.put("Job apiary-ingest-schema", cassandra);
        // registry register: the registry's login and, optional, a private CA of the registry in apiary-ingest-tls
        allowed.put("Job apiary-ingest-registry", Set.of(registry, "apiary-ingest-tls/*"));

        Map<String, Set<String>> read = new TreeMap<>();
        for (PodContainer container : rendered.containers()) {
            read.computeIfAbsent(
                            container.workload().getKind() + " "
                                    + container.workload().getMetadata().getName(),
                            k -> new TreeSet<>())
                    .addAll(secretKeys(container));
        }
        assertThat(read.keySet()).as("workloads of %s", OVERLAY).isEqualTo(allowed.keySet());
        read.forEach((workload, keys) -> assertThat(allowed.get(workload))
                .as("%s: Secret keys it reads (name/key) against those Strimzi and cass-operator make", workload)
                .containsAll(keys));
        assertThat(rendered.all(Job.class))
                .extracting(job -> job.getMetadata().getName())
                .as("the Topic Operator owns the topics: no topics Job")
                .doesNotContain("apiary-ingest-topics");
    }

    /** Every Secret key a container reads, as {@code name/key}: its variables' and its mounted secret volumes' (all keys: {@code name/*}). */
    private static Set<String> secretKeys(PodContainer container) {
        Set<String> keys = new TreeSet<>();
        for (EnvVar env : container.container().getEnv()) {
            if (env.getValueFrom() != null && env.getValueFrom().getSecretKeyRef() != null) {
                keys.add(env.getValueFrom().getSecretKeyRef().getName() + "/"
                        + env.getValueFrom().getSecretKeyRef().getKey());
            }
        }
        Set<String> mounted = container.container().getVolumeMounts().stream()
                .map(VolumeMount::getName)
                .collect(Collectors.toSet());
        for (Volume volume : container.template().getSpec().getVolumes()) {
            if (mounted.contains(volume.getName()) && volume.getSecret() != null) {
                SecretVolumeSource secret = volume.getSecret();
                if (secret.getItems() == null || secret.getItems().isEmpty()) {
                    keys.add(secret.getSecretName() + "/*");
                } else {
                    secret.getItems().forEach(item -> keys.add(secret.getSecretName() + "/" + item.getKey()));
                }
            }
            assertThat(volume.getProjected())
                    .as("%s: projected volume %s (not resolved by this check)", container.where(), volume.getName())
                    .isNull();
        }
        return keys;
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"overlays/dev", "overlays/prod"})
    void should_leave_the_plain_overlays_without_strimzi(String dir) {
        RenderedManifests rendered = rendered(dir);
        assertThat(StrimziResources.anyStrimziObject(rendered))
                .as("%s: Strimzi objects", dir)
                .isFalse();
        assertThat(rendered.find(Job.class, "apiary-ingest-topics"))
                .as("%s: the topics Job", dir)
                .isPresent();
        for (PodContainer container : rendered.containers()) {
            assertThat(secretKeys(container))
                    .as("%s: Secrets of Strimzi", container.where())
                    .noneMatch(key -> key.startsWith(TOPOLOGY + "/")
                            || key.startsWith(SINK + "/")
                            || key.contains("-cluster-ca-cert/"));
        }
    }

    /** A valid KafkaUser with one ACL (Read on topic t), its ACL's fields last, for the cases that break it. */
    private static final String KAFKA_USER_READING_T = """
            apiVersion: kafka.strimzi.io/v1beta2
            kind: KafkaUser
            metadata: {name: u}
            spec:
              authentication: {type: scram-sha-512}
              authorization:
                type: simple
                acls:
                  - resource: {type: topic, name: t, patternType: literal}
                    operations: [Read]
            """;

    @Test
    void should_fail_naming_the_field_when_a_kafka_user_has_one_strimzi_does_not_define() {
        String yaml = KAFKA_USER_READING_T + "        hosts: \"*\"\n";
        assertThatThrownBy(() -> StrictYaml.kubernetesObjects(yaml, "inline"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("inline, document 1")
                .hasMessageContaining("spec.authorization.acls[0].hosts");
    }

    @Test
    void should_fail_when_an_acl_operation_or_resource_type_is_not_strimzis() {
        String operation = KAFKA_USER_READING_T.replace("[Read]", "[Reed]");
        assertThatThrownBy(() -> StrictYaml.kubernetesObjects(operation, "inline"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Reed");

        String resourceType = operation.replace("type: topic", "type: topics").replace("Reed", "Read");
        assertThatThrownBy(() -> StrictYaml.kubernetesObjects(resourceType, "inline"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("topics");
    }

    @Test
    void should_fail_when_a_kafka_topic_has_a_misspelt_field_or_partitions_as_text() {
        String misspelt = """
                apiVersion: kafka.strimzi.io/v1beta2
                kind: KafkaTopic
                metadata: {name: t}
                spec:
                  partitions: 12
                  replica: 3
                """;
        assertThatThrownBy(() -> StrictYaml.kubernetesObjects(misspelt, "inline"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("spec.replica");

        String text = """
                apiVersion: kafka.strimzi.io/v1beta2
                kind: KafkaTopic
                metadata: {name: t}
                spec:
                  partitions: "12"
                """;
        assertThatThrownBy(() -> StrictYaml.kubernetesObjects(text, "inline"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("KafkaTopic");
    }
}
