package io.apiary.ingest.deploy;

import static io.apiary.ingest.deploy.DeployFolder.DEPLOY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiary.ingest.logging.LogEnvironment;
import io.apiary.ingest.pipeline.GroupMembership;
import io.fabric8.kubernetes.api.model.Capabilities;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyEgressRule;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * deploy/ against the Kubernetes API and against the application: every YAML file parses strictly
 * into the fabric8 kubernetes-model ({@link StrictYaml}), every kustomization renders with
 * {@code kubectl kustomize} (which must be on PATH) into objects that parse strictly too, and the
 * rendered objects agree with the application's settings, endpoints, memory use and shutdown.
 */
class DeployManifestsTest {

    /** JVM memory besides heap and RocksDB: metaspace, code cache, thread stacks, GC, direct buffers (Netty). An assumption. */
    private static final long JVM_OVERHEAD_BYTES = 300L * 1024 * 1024;
    /** Time the kubelet must leave after shutdown.timeout.ms: JVM exit, log flush, signal delivery. */
    private static final long GRACE_MARGIN_MS = 10_000;

    private static final Pattern MAX_RAM_PERCENTAGE = Pattern.compile("-XX:MaxRAMPercentage=([0-9.]+)");
    private static final long RUN_AS_USER = 10001;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.apiary.ingest.deploy.DeployFolder#yamlFiles")
    void should_parse_strictly_when_reading_a_yaml_file_of_deploy(String file) {
        String yaml = DeployFolder.read(DEPLOY.resolve(file));

        if (DeployFolder.isKustomization(Path.of(file))) {
            Kustomization kustomization = StrictYaml.kustomization(yaml, "deploy/" + file);
            assertThat(kustomization.secretGenerator())
                    .as(
                            "deploy/%s: secretGenerator would put secret values "
                                    + "in the repository; reference Secrets created apart (deploy/README.md)",
                            file)
                    .isNullOrEmpty();
        } else {
            assertThat(StrictYaml.kubernetesObjects(yaml, "deploy/" + file))
                    .extracting(HasMetadata::getKind)
                    .as(
                            "deploy/%s: kinds of its objects; a Secret would put its values in the repository (create "
                                    + "Secrets apart: deploy/README.md)",
                            file)
                    .isNotEmpty()
                    .doesNotContain("Secret");
        }
    }

    @Test
    void should_fail_naming_the_path_when_a_field_is_misspelt() {
        String yaml = """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: misspelt}
                spec:
                  template:
                    spec:
                      containers:
                        - name: ingest
                          image: apiary-ingest:0.1.0
                          imagePullPolicyy: IfNotPresent
                """;

        assertThatThrownBy(() -> StrictYaml.kubernetesObjects(yaml, "inline"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("Deployment misspelt")
                .hasMessageContaining("unknown field(s) spec.template.spec.containers[0].imagePullPolicyy");
    }

    @Test
    void should_fail_when_an_annotation_value_is_a_number() {
        String yaml = """
                apiVersion: v1
                kind: Service
                metadata: {name: unquoted, annotations: {prometheus.io/port: 8080}}
                """;

        assertThatThrownBy(() -> StrictYaml.kubernetesObjects(yaml, "inline"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("inline, document 1")
                .hasMessageContaining("Integer value (8080) to `java.lang.String`");
    }

    @Test
    void should_fail_naming_the_field_when_a_kustomization_has_one_it_does_not_know() {
        String yaml = """
                apiVersion: kustomize.config.k8s.io/v1beta1
                kind: Kustomization
                configMapGenerators: []
                """;

        assertThatThrownBy(() -> StrictYaml.kustomization(yaml, "inline"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("configMapGenerators");
    }

    @Test
    void should_use_every_manifest_file_when_building_the_kustomizations() {
        Set<Path> used = new HashSet<>();
        DeployFolder.files().filter(DeployFolder::isKustomization).forEach(file -> {
            Kustomization kustomization = StrictYaml.kustomization(
                    DeployFolder.read(file), DEPLOY.relativize(file).toString());
            Stream.concat(
                            Stream.ofNullable(kustomization.resources()).flatMap(List::stream),
                            Stream.ofNullable(kustomization.patches())
                                    .flatMap(List::stream)
                                    .map(Kustomization.Patch::path))
                    .filter(Objects::nonNull)
                    .map(path -> file.getParent().resolve(path).normalize())
                    .forEach(used::add);
        });

        assertThat(DeployFolder.yamlFiles()
                        .map(DEPLOY::resolve)
                        .filter(file -> !DeployFolder.isKustomization(file) && !used.contains(file)))
                .as("YAML files under deploy/ that no kustomization uses as a resource or patch")
                .isEmpty();
    }

    @Test
    void should_add_every_component_to_an_overlay_when_building_the_kustomizations() {
        Set<Path> added = new HashSet<>();
        DeployFolder.kustomizations().map(DEPLOY::resolve).forEach(dir -> {
            Kustomization kustomization = StrictYaml.kustomization(
                    DeployFolder.read(dir.resolve("kustomization.yaml")),
                    DEPLOY.relativize(dir) + "/kustomization.yaml");
            Stream.ofNullable(kustomization.components())
                    .flatMap(List::stream)
                    .map(component -> dir.resolve(component).normalize())
                    .forEach(added::add);
        });

        assertThat(DeployFolder.components().map(DEPLOY::resolve))
                .as("components under deploy/ that no overlay adds (so no test renders them)")
                .allMatch(added::contains);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.apiary.ingest.deploy.DeployFolder#kustomizations")
    void should_render_the_topology_the_sink_and_the_jobs_when_built_with_kubectl_kustomize(String dir) {
        RenderedManifests rendered = rendered(dir);

        assertThat(rendered.objects())
                .extracting(HasMetadata::getKind)
                .contains("StatefulSet", "Deployment", "Job", "ConfigMap")
                .containsAnyOf("HorizontalPodAutoscaler", "ScaledObject");
        assertThat(rendered.all(Secret.class))
                .extracting(secret -> secret.getMetadata().getName())
                .as("%s: rendered Secrets (their values would be in the repository)", dir)
                .isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.apiary.ingest.deploy.DeployFolder#platformKustomizations")
    void should_render_the_platforms_objects_strictly_and_without_secrets_when_built_with_kubectl_kustomize(
            String dir) {
        RenderedManifests rendered = rendered(dir);

        assertThat(rendered.objects()).as("%s: rendered objects", dir).isNotEmpty();
        assertThat(rendered.objects())
                .as("%s: objects without a namespace (applied apart, into the platform's namespace)", dir)
                .allMatch(object -> object.getMetadata().getNamespace() != null);
        assertThat(rendered.all(Secret.class))
                .extracting(secret -> secret.getMetadata().getName())
                .as("%s: rendered Secrets (their values would be in the repository)", dir)
                .isEmpty();
        assertThat(rendered.containers())
                .as("%s: the application's workloads belong in deploy/overlays/", dir)
                .isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.apiary.ingest.deploy.DeployFolder#kustomizations")
    void should_set_only_options_of_the_application_when_configuring_a_container(String dir) {
        SoftAssertions.assertSoftly(softly -> rendered(dir)
                .containers()
                .forEach(container -> softly.assertThat(AppOptions.unknown(container.settings()))
                        .as("%s: settings the application does not define (deploy/configuration.md)", container.where())
                        .isEmpty()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.apiary.ingest.deploy.DeployFolder#kustomizations")
    void should_log_json_for_the_log_collector_when_running_a_container(String dir) {
        SoftAssertions.assertSoftly(softly -> rendered(dir).containers().forEach(container -> {
            java.util.Map<String, String> env = new java.util.HashMap<>();
            container.container().getEnv().stream()
                    .filter(variable -> variable.getValue() != null)
                    .forEach(variable -> env.put(variable.getName(), variable.getValue()));
            softly.assertThat(LogEnvironment.systemProperties(env, "INFO").get(LogEnvironment.FORMAT_PROPERTY))
                    .as("%s: %s", container.where(), LogEnvironment.FORMAT_VARIABLE)
                    .isEqualTo(LogEnvironment.Format.JSON.setting());
        }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.apiary.ingest.deploy.DeployFolder#kustomizations")
    void should_take_secret_settings_from_secrets_when_configuring_a_container(String dir) {
        SoftAssertions.assertSoftly(softly -> rendered(dir)
                .containers()
                .forEach(container -> softly.assertThat(container.fromSecrets())
                        .as(
                                "%s: secret settings with a literal value; take them from a Secret (secretKeyRef)",
                                container.where())
                        .containsAll(AppOptions.secrets(container.settings()))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.apiary.ingest.deploy.DeployFolder#kustomizations")
    void should_leave_time_to_drain_when_the_pod_is_terminated(String dir) {
        SoftAssertions.assertSoftly(softly -> pipelineContainers(dir).forEach(container -> {
            long shutdownMs = container.longSetting("shutdown.timeout.ms");
            Long graceSeconds = container.template().getSpec().getTerminationGracePeriodSeconds();
            softly.assertThat(graceSeconds == null ? 30_000 : graceSeconds * 1000)
                    .as(
                            "%s: terminationGracePeriodSeconds in ms, against shutdown.timeout.ms %d plus %d ms",
                            container.where(), shutdownMs, GRACE_MARGIN_MS)
                    .isGreaterThanOrEqualTo(shutdownMs + GRACE_MARGIN_MS);
            softly.assertThat(container.longSetting("sink.drain.timeout.ms"))
                    .as("%s: sink.drain.timeout.ms must fit in shutdown.timeout.ms", container.where())
                    .isLessThanOrEqualTo(shutdownMs);
        }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.apiary.ingest.deploy.DeployFolder#kustomizations")
    void should_probe_health_and_expose_metrics_on_port_http_when_running_the_pipeline(String dir) {
        SoftAssertions.assertSoftly(softly -> pipelineContainers(dir).forEach(container -> {
            String where = container.where();
            String httpPort = container.setting("http.port");
            softly.assertThat(container.container().getPorts())
                    .as("%s: container port named http", where)
                    .anySatisfy(port -> {
                        assertThat(port.getName()).isEqualTo("http");
                        assertThat(port.getContainerPort()).as("http.port").hasToString(httpPort);
                    });
            softly.assertThat(probe(container.container().getLivenessProbe()))
                    .as("%s: livenessProbe", where)
                    .isEqualTo("GET /health/live on http");
            Optional.ofNullable(container.container().getStartupProbe())
                    .ifPresent(startup -> softly.assertThat(probe(startup))
                            .as("%s: startupProbe", where)
                            .isEqualTo("GET /health/live on http"));
            softly.assertThat(probe(container.container().getReadinessProbe()))
                    .as("%s: readinessProbe", where)
                    .isEqualTo("GET /health/ready on http");
            softly.assertThat(container.template().getMetadata().getAnnotations())
                    .as("%s: Prometheus annotations", where)
                    .containsEntry("prometheus.io/scrape", "true")
                    .containsEntry("prometheus.io/port", httpPort)
                    .containsEntry("prometheus.io/path", "/metrics");
        }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.apiary.ingest.deploy.DeployFolder#kustomizations")
    void should_fit_heap_rocksdb_and_jvm_overhead_under_the_memory_limit_when_sizing_a_container(String dir) {
        SoftAssertions.assertSoftly(softly -> rendered(dir).containers().forEach(container -> {
            String where = container.where();
            ResourceRequirements resources =
                    Objects.requireNonNullElseGet(container.container().getResources(), ResourceRequirements::new);
            assertThat(resources.getLimits()).as("%s: resources.limits", where).containsKey("memory");
            assertThat(resources.getRequests())
                    .as("%s: resources.requests", where)
                    .containsKey("memory");
            BigDecimal limit = Quantity.getAmountInBytes(resources.getLimits().get("memory"));
            softly.assertThat(Quantity.getAmountInBytes(resources.getRequests().get("memory")))
                    .as("%s: memory request = limit (the JVM does not give memory back)", where)
                    .isEqualByComparingTo(limit);
            String jvmOptions = container.literalEnv("JAVA_TOOL_OPTIONS").orElse("");
            Matcher percentage = MAX_RAM_PERCENTAGE.matcher(jvmOptions);
            assertThat(percentage.find())
                    .as("%s: JAVA_TOOL_OPTIONS '%s' bounds the heap with -XX:MaxRAMPercentage", where, jvmOptions)
                    .isTrue();
            long heap = limit.multiply(new BigDecimal(percentage.group(1)))
                    .divide(BigDecimal.valueOf(100))
                    .longValue();
            long rocksDb = container.runsTopology() ? container.longSetting("topology.rocksdb.memory.bytes") : 0;
            softly.assertThat(limit.longValue())
                    .as(
                            "%s: memory limit against heap %d MiB + RocksDB %d MiB + JVM overhead %d MiB",
                            where, heap >> 20, rocksDb >> 20, JVM_OVERHEAD_BYTES >> 20)
                    .isGreaterThan(heap + rocksDb + JVM_OVERHEAD_BYTES);
        }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.apiary.ingest.deploy.DeployFolder#kustomizations")
    void should_run_every_container_restricted_when_scheduled(String dir) {
        RenderedManifests rendered = rendered(dir);
        SoftAssertions.assertSoftly(softly -> rendered.containers().forEach(container -> {
            String where = container.where();
            PodSpec pod = container.template().getSpec();
            PodSecurityContext podContext =
                    Objects.requireNonNullElseGet(pod.getSecurityContext(), PodSecurityContext::new);
            SecurityContext context =
                    Objects.requireNonNullElseGet(container.container().getSecurityContext(), SecurityContext::new);
            softly.assertThat(Optional.ofNullable(context.getRunAsNonRoot()).orElse(podContext.getRunAsNonRoot()))
                    .as("%s: runAsNonRoot", where)
                    .isTrue();
            softly.assertThat(Optional.ofNullable(context.getRunAsUser()).orElse(podContext.getRunAsUser()))
                    .as("%s: runAsUser", where)
                    .isEqualTo(RUN_AS_USER);
            softly.assertThat(context.getReadOnlyRootFilesystem())
                    .as("%s: readOnlyRootFilesystem", where)
                    .isTrue();
            softly.assertThat(context.getAllowPrivilegeEscalation())
                    .as("%s: allowPrivilegeEscalation", where)
                    .isFalse();
            softly.assertThat(context.getPrivileged())
                    .as("%s: privileged", where)
                    .isNotEqualTo(Boolean.TRUE);
            Capabilities capabilities = Objects.requireNonNullElseGet(context.getCapabilities(), Capabilities::new);
            softly.assertThat(capabilities.getDrop())
                    .as("%s: capabilities.drop", where)
                    .contains("ALL");
            softly.assertThat(capabilities.getAdd())
                    .as("%s: capabilities.add", where)
                    .isNullOrEmpty();
            softly.assertThat(Optional.ofNullable(context.getSeccompProfile()).orElse(podContext.getSeccompProfile()))
                    .as("%s: seccompProfile", where)
                    .isNotNull()
                    .extracting("type")
                    .isEqualTo("RuntimeDefault");
            softly.assertThat(pod.getAutomountServiceAccountToken())
                    .as("%s: automountServiceAccountToken", where)
                    .isFalse();
            softly.assertThat(rendered.find(ServiceAccount.class, Objects.toString(pod.getServiceAccountName())))
                    .as("%s: its ServiceAccount %s", where, pod.getServiceAccountName())
                    .isPresent();
            softly.assertThat(pod.getEnableServiceLinks())
                    .as("%s: enableServiceLinks (service links add APIARY_* variables, read as settings)", where)
                    .isFalse();
            softly.assertThat(Stream.of(pod.getHostNetwork(), pod.getHostPID(), pod.getHostIPC()))
                    .as("%s: hostNetwork, hostPID, hostIPC", where)
                    .doesNotContain(Boolean.TRUE);
            if (container.workload() instanceof StatefulSet set
                    && !set.getSpec().getVolumeClaimTemplates().isEmpty()) {
                softly.assertThat(podContext.getFsGroup())
                        .as("%s: fsGroup, so that the volume is writable", where)
                        .isNotNull();
            }
        }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.apiary.ingest.deploy.DeployFolder#kustomizations")
    void should_keep_the_topology_state_on_its_persistent_volume_when_running_the_topology(String dir) {
        SoftAssertions.assertSoftly(softly -> pipelineContainers(dir)
                .filter(PodContainer::runsTopology)
                .forEach(container -> {
                    assertThat(container.workload())
                            .as("%s: the topology runs in a StatefulSet", container.where())
                            .isInstanceOf(StatefulSet.class);
                    List<PersistentVolumeClaim> claimTemplates =
                            ((StatefulSet) container.workload()).getSpec().getVolumeClaimTemplates();
                    List<String> claims = claimTemplates.stream()
                            .map(claim -> claim.getMetadata().getName())
                            .toList();
                    claimTemplates.forEach(claim -> softly.assertThat(
                                    claim.getMetadata().getLabels())
                            .as(
                                    "%s: labels of volume claim template %s (it cannot change: an upgrade would be refused)",
                                    container.where(), claim.getMetadata().getName())
                            .doesNotContainKey("app.kubernetes.io/version"));
                    String stateDir = container.setting("topology.state.dir");
                    List<String> claimMounts = container.container().getVolumeMounts().stream()
                            .filter(mount -> claims.contains(mount.getName()))
                            .map(VolumeMount::getMountPath)
                            .toList();
                    softly.assertThat(claimMounts)
                            .as(
                                    "%s: mount paths of its volume claim templates %s, one at or above topology.state.dir %s",
                                    container.where(), claims, stateDir)
                            .anyMatch(path -> stateDir.equals(path) || stateDir.startsWith(path + "/"));
                }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.apiary.ingest.deploy.DeployFolder#kustomizations")
    void should_give_a_stable_instance_id_only_to_statefulset_pods_when_setting_static_membership(String dir) {
        SoftAssertions.assertSoftly(softly -> pipelineContainers(dir).forEach(container -> {
            boolean stable = container.workload() instanceof StatefulSet;
            List<EnvVar> env = container.container().getEnv() == null
                    ? List.of()
                    : container.container().getEnv();
            Optional<String> fromPodName = env.stream()
                    .filter(variable -> variable.getName().equals("APIARY_INSTANCE_ID"))
                    .map(EnvVar::getValueFrom)
                    .filter(from -> from != null && from.getFieldRef() != null)
                    .map(from -> from.getFieldRef().getFieldPath())
                    .findFirst();
            String id = container.settings().getOrDefault(GroupMembership.INSTANCE_ID, "");
            if (stable) {
                // a StatefulSet pod keeps its name across restarts: static membership, no rebalance
                softly.assertThat(fromPodName)
                        .as("%s: APIARY_INSTANCE_ID from the pod's name (downward API)", container.where())
                        .contains("metadata.name");
            } else {
                // a Deployment's pod gets a new name at each restart: a static id would leave stale members
                softly.assertThat(id)
                        .as("%s: instance.id of a pod without a stable name", container.where())
                        .isEmpty();
            }
        }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.apiary.ingest.deploy.DeployFolder#kustomizations")
    void should_run_no_more_instances_than_partitions_when_scaling(String dir) {
        RenderedManifests rendered = rendered(dir);
        SoftAssertions.assertSoftly(softly -> {
            for (HorizontalPodAutoscaler hpa : rendered.all(HorizontalPodAutoscaler.class)) {
                String target = hpa.getSpec().getScaleTargetRef().getName();
                Deployment deployment = rendered.find(Deployment.class, target)
                        .orElseThrow(() -> new AssertionError(dir + ": HorizontalPodAutoscaler "
                                + hpa.getMetadata().getName() + " targets no rendered Deployment " + target));
                partitions(rendered, deployment)
                        .ifPresent(partitions -> softly.assertThat(
                                        (long) hpa.getSpec().getMaxReplicas())
                                .as(
                                        "%s: HPA %s maxReplicas against topic.partitions (instances beyond it idle)",
                                        dir, target)
                                .isLessThanOrEqualTo(partitions));
            }
            for (StatefulSet set : rendered.all(StatefulSet.class)) {
                int replicas = Objects.requireNonNullElse(set.getSpec().getReplicas(), 1);
                partitions(rendered, set)
                        .ifPresent(partitions -> softly.assertThat((long) replicas)
                                .as(
                                        "%s: StatefulSet %s replicas against topic.partitions",
                                        dir, set.getMetadata().getName())
                                .isLessThanOrEqualTo(partitions));
                // Kafka Streams' own default: no standby replicas.
                containersOf(rendered, set)
                        .forEach(container -> softly.assertThat(Long.parseLong(
                                        container.settings().getOrDefault("streams.num.standby.replicas", "0")))
                                .as("%s: streams.num.standby.replicas needs as many other instances", container.where())
                                .isLessThan(replicas));
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.apiary.ingest.deploy.DeployFolder#kustomizations")
    void should_pin_the_image_to_the_version_label_when_naming_it(String dir) {
        SoftAssertions.assertSoftly(softly -> rendered(dir).containers().forEach(container -> {
            String image = container.container().getImage();
            boolean digest = image.contains("@");
            int colon = image.lastIndexOf(':');
            String tag = !digest && colon > image.lastIndexOf('/') ? image.substring(colon + 1) : null;
            softly.assertThat(digest || tag != null)
                    .as("%s: image %s has a tag or digest", container.where(), image)
                    .isTrue();
            if (tag != null) {
                softly.assertThat(tag)
                        .as("%s: image tag, against the pod label app.kubernetes.io/version", container.where())
                        .isNotEqualTo("latest")
                        .isEqualTo(
                                container.template().getMetadata().getLabels().get("app.kubernetes.io/version"));
            }
        }));
    }

    /**
     * Where the pipeline uses a schema registry, a setup Job registers the subjects (one process,
     * one subject at a time) with the same registry URL, so that pods starting together only check
     * them: concurrent registrations of one schema can corrupt an Apicurio Registry 2.x subject.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.apiary.ingest.deploy.DeployFolder#kustomizations")
    void should_register_the_subjects_in_a_setup_job_when_the_pipeline_uses_a_schema_registry(String dir) {
        List<PodContainer> containers = rendered(dir).containers();
        Set<String> pipelineRegistries = containers.stream()
                .filter(PodContainer::runsPipeline)
                .map(container -> container.setting("schema.registry.url"))
                .filter(url -> url != null && !url.isBlank())
                .collect(java.util.stream.Collectors.toSet());
        Set<String> registeredBySetup = containers.stream()
                .filter(container -> container.args().size() >= 2
                        && container.args().subList(0, 2).equals(List.of("registry", "register")))
                .map(container -> container.setting("schema.registry.url"))
                .collect(java.util.stream.Collectors.toSet());
        assertThat(registeredBySetup)
                .as("%s: schema.registry.url of the Jobs running 'registry register'", dir)
                .containsAll(pipelineRegistries);
    }

    /**
     * The NetworkPolicy selects every pod of the application and allows egress only to the ports
     * it names: each server a container's settings name (Kafka's bootstrap servers, Cassandra's
     * contact points, the schema registry's URLs) must be on a port one of its egress rules
     * allows, or the pod cannot reach it in a cluster that enforces NetworkPolicies.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.apiary.ingest.deploy.DeployFolder#kustomizations")
    void should_let_every_pod_reach_the_kafka_cassandra_and_registry_ports_its_settings_name(String dir) {
        RenderedManifests rendered = rendered(dir);
        NetworkPolicy policy =
                rendered.find(NetworkPolicy.class, "apiary-ingest").orElseThrow();
        List<NetworkPolicyEgressRule> egress = policy.getSpec().getEgress() == null
                ? List.of()
                : policy.getSpec().getEgress();
        SoftAssertions.assertSoftly(softly -> rendered.containers().forEach(container -> {
            for (String option :
                    List.of("kafka.bootstrap.servers", "cassandra.contact.points", "schema.registry.url")) {
                String value = container.settings().get(option);
                if (value == null || value.isBlank()) {
                    continue;
                }
                for (String server : value.split(",")) {
                    int port = portOf(option, server.trim());
                    softly.assertThat(egress.stream().anyMatch(rule -> allows(rule, port)))
                            .as(
                                    "%s: %s names %s; an egress rule of NetworkPolicy apiary-ingest allows port %d",
                                    container.where(), option, server.trim(), port)
                            .isTrue();
                }
            }
        }));
    }

    /**
     * @return the port of a URL (its scheme's default when it names none) or of {@code host:port}
     *         (Cassandra's 9042 or Kafka's 9092 when it names none)
     */
    private static int portOf(String option, String server) {
        if (server.contains("://")) {
            java.net.URI uri = java.net.URI.create(server);
            return uri.getPort() >= 0 ? uri.getPort() : uri.getScheme().equals("https") ? 443 : 80;
        }
        int colon = server.lastIndexOf(':');
        if (colon < 0) {
            return option.startsWith("cassandra.") ? 9042 : 9092;
        }
        return Integer.parseInt(server.substring(colon + 1));
    }

    /** @return whether a rule allows TCP to the port: a rule without ports allows every port */
    private static boolean allows(NetworkPolicyEgressRule rule, int port) {
        if (rule.getPorts() == null || rule.getPorts().isEmpty()) {
            return true;
        }
        return rule.getPorts().stream()
                .anyMatch(p -> (p.getProtocol() == null || p.getProtocol().equals("TCP"))
                        && p.getPort() != null
                        && p.getPort().getIntVal() != null
                        && (p.getEndPort() == null
                                ? p.getPort().getIntVal() == port
                                : p.getPort().getIntVal() <= port && port <= p.getEndPort()));
    }

    private static String probe(Probe probe) {
        HTTPGetAction get = probe == null ? null : probe.getHttpGet();
        return get == null
                ? "no HTTP probe"
                : "GET " + get.getPath() + " on " + get.getPort().getValue();
    }

    private static Stream<PodContainer> pipelineContainers(String dir) {
        return rendered(dir).containers().stream().filter(PodContainer::runsPipeline);
    }

    private static Stream<PodContainer> containersOf(RenderedManifests rendered, HasMetadata workload) {
        return rendered.containers().stream().filter(container -> container.workload() == workload);
    }

    private static Optional<Long> partitions(RenderedManifests rendered, HasMetadata workload) {
        return containersOf(rendered, workload)
                .filter(PodContainer::runsPipeline)
                .findFirst()
                .map(container -> container.longSetting("topic.partitions"));
    }

    private static RenderedManifests rendered(String dir) {
        return RenderedManifests.render(DEPLOY.resolve(dir));
    }
}
