package io.apiary.ingest.deploy;

import static io.apiary.ingest.deploy.DeployFolder.DEPLOY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiary.ingest.deploy.KedaResources.ConfigMapTargetRef;
import io.apiary.ingest.deploy.KedaResources.ScaledObject;
import io.apiary.ingest.deploy.KedaResources.SecretTargetRef;
import io.apiary.ingest.deploy.KedaResources.Trigger;
import io.apiary.ingest.deploy.KedaResources.TriggerAuthentication;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The sink scaled on its consumer lag by KEDA ({@code deploy/components/keda}, in
 * {@code overlays/prod-operators}), against the application's own settings as rendered: the
 * trigger reads the group the sink really consumes with, on the brokers it really uses, with its
 * security, checking the brokers' certificates against the cluster CA (PEM) and logging in as the
 * Strimzi KafkaUser whose Secret gives the password (a user of its own, not the sink's); it cannot
 * run more instances than partitions; it scales in the CPU HPA's steps, and
 * the CPU HPA it replaces is gone there and still in place without the component.
 */
class KedaScalingTest {

    private static final String OVERLAY = "overlays/prod-operators";
    private static final String SINK = "apiary-ingest-sink";

    private static RenderedManifests rendered(String dir) {
        return RenderedManifests.render(DEPLOY.resolve(dir));
    }

    private static PodContainer sinkContainer(RenderedManifests rendered) {
        return rendered.containers().stream()
                .filter(c -> c.workload() instanceof Deployment d
                        && d.getMetadata().getName().equals(SINK)
                        && c.runsPipeline())
                .findFirst()
                .orElseThrow(() -> new AssertionError("no sink container in the rendered overlay"));
    }

    private static ScaledObject sinkScaledObject(RenderedManifests rendered) {
        List<ScaledObject> objects = KedaResources.scaledObjects(rendered).stream()
                .filter(o -> o.spec().scaleTargetRef().name().equals(SINK))
                .toList();
        assertThat(objects).as("ScaledObjects of the sink in %s", OVERLAY).hasSize(1);
        return objects.get(0);
    }

    private static Trigger trigger(ScaledObject object, String type) {
        return object.spec().triggers().stream()
                .filter(t -> t.type().equals(type))
                .findFirst()
                .orElseThrow(() -> new AssertionError(
                        "ScaledObject " + object.metadata().getName() + " has no " + type + " trigger"));
    }

    @Test
    void should_replace_the_cpu_hpa_with_the_scaled_object_only_where_keda_is_added() {
        RenderedManifests operators = rendered(OVERLAY);
        assertThat(operators.find(HorizontalPodAutoscaler.class, SINK))
                .as("%s: the CPU HPA must be gone, since KEDA makes its own HPA for the ScaledObject", OVERLAY)
                .isEmpty();
        ScaledObject object = sinkScaledObject(operators);
        assertThat(object.spec().scaleTargetRef().kind()).isEqualTo("Deployment");
        assertThat(operators.find(Deployment.class, SINK)).isPresent();

        RenderedManifests prod = rendered("overlays/prod");
        assertThat(prod.find(HorizontalPodAutoscaler.class, SINK)).isPresent();
        assertThat(KedaResources.scaledObjects(prod)).isEmpty();
    }

    @Test
    void should_read_the_lag_of_the_group_and_brokers_the_sink_uses() {
        RenderedManifests operators = rendered(OVERLAY);
        PodContainer sink = sinkContainer(operators);
        Map<String, String> metadata =
                trigger(sinkScaledObject(operators), "kafka").metadata();

        assertThat(metadata.get("consumerGroup"))
                .as("the trigger's consumerGroup against the sink's sink.group.id")
                .isEqualTo(sink.setting("sink.group.id"));
        assertThat(Set.of(metadata.get("bootstrapServers").split(",")))
                .as("the trigger's bootstrapServers against the sink's kafka.bootstrap.servers")
                .isEqualTo(Set.of(sink.setting("kafka.bootstrap.servers").split(",")));
        assertThat(metadata).doesNotContainKey("topic"); // every row topic of the group, extra tables too
        assertThat(Long.parseLong(metadata.get("lagThreshold"))).isPositive();
        assertThat(metadata.get("allowIdleConsumers")).isEqualTo("false");

        // passed through to the Kafka clients (not options of the application's own): Kafka's defaults
        String protocol = sink.settings().getOrDefault("kafka.security.protocol", "PLAINTEXT");
        assertThat(metadata.get("tls"))
                .as("tls against kafka.security.protocol %s", protocol)
                .isEqualTo(protocol.endsWith("SSL") ? "enable" : "disable");
        if (protocol.startsWith("SASL")) {
            assertThat(metadata.get("sasl"))
                    .as("sasl against kafka.sasl.mechanism")
                    .isEqualTo(sink.settings()
                            .getOrDefault("kafka.sasl.mechanism", "GSSAPI")
                            .toLowerCase(Locale.ROOT)
                            .replace('-', '_')
                            .replace("scram_sha_", "scram_sha"));
        }
    }

    @Test
    void should_take_every_credential_of_the_trigger_from_a_secret() {
        RenderedManifests operators = rendered(OVERLAY);
        Trigger kafka = trigger(sinkScaledObject(operators), "kafka");
        assertThat(kafka.authenticationRef()).isNotNull();
        TriggerAuthentication authentication = KedaResources.triggerAuthentications(operators).stream()
                .filter(a ->
                        a.metadata().getName().equals(kafka.authenticationRef().name()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no rendered TriggerAuthentication "
                        + kafka.authenticationRef().name()));

        Set<String> fromSecrets = new HashSet<>();
        authentication.spec().secretTargetRef().forEach(ref -> {
            assertThat(ref.name()).as(ref.parameter()).isNotBlank();
            assertThat(ref.key()).as(ref.parameter()).isNotBlank();
            fromSecrets.add(ref.parameter());
        });
        // A user name is no secret: it may come from a ConfigMap (Strimzi's KafkaUser Secret has no
        // key holding it); everything else must come from a Secret.
        Set<String> fromConfigMaps = new HashSet<>();
        Stream.ofNullable(authentication.spec().configMapTargetRef())
                .flatMap(List::stream)
                .forEach(ref -> {
                    assertThat(ref.name()).as(ref.parameter()).isNotBlank();
                    assertThat(ref.key()).as(ref.parameter()).isNotBlank();
                    assertThat(operators.find(ConfigMap.class, ref.name()))
                            .as("the rendered ConfigMap %s of parameter %s", ref.name(), ref.parameter())
                            .hasValueSatisfying(map -> assertThat(map.getData()).containsKey(ref.key()));
                    fromConfigMaps.add(ref.parameter());
                });
        assertThat(fromConfigMaps)
                .as("parameters from ConfigMaps (only the user name is not secret)")
                .isSubsetOf(Set.of("username"));
        assertThat(authentication.spec().env())
                .as("parameters from the environment")
                .isNull();
        Set<String> parameters = new HashSet<>(fromSecrets);
        parameters.addAll(fromConfigMaps);
        assertThat(KedaResources.KAFKA_AUTH_PARAMETERS).containsAll(parameters);
        if (kafka.metadata().containsKey("sasl")) {
            assertThat(parameters).contains("username");
            assertThat(fromSecrets).contains("password");
        }
        if ("enable".equals(kafka.metadata().get("tls"))) {
            assertThat(fromSecrets)
                    .as("the CA the brokers' certificates are checked against")
                    .contains("ca");
        }
        // certificates always checked: unsafeSsl (skip verification) absent or "false" in the
        // trigger, and not taken from a Secret, whose value this test cannot see
        assertThat(kafka.metadata().getOrDefault("unsafeSsl", "false"))
                .as("the trigger's unsafeSsl")
                .isEqualTo("false");
        assertThat(parameters).as("parameters of the TriggerAuthentication").doesNotContain("unsafeSsl");

        // Strimzi (this overlay): the CA is the cluster CA's PEM certificate (KEDA's ca parameter
        // takes PEM, not the PKCS12 truststore ca.p12), and the user name is that of the KafkaUser
        // whose Secret (named after it, key password) gives the password
        SecretTargetRef ca = secretRef(authentication, "ca");
        SecretTargetRef password = secretRef(authentication, "password");
        StrimziResources.KafkaUser user = StrimziResources.users(operators).stream()
                .filter(u -> u.metadata().name().equals(password.name()))
                .findFirst()
                .orElseThrow(() ->
                        new AssertionError("the password's Secret " + password.name() + " is no rendered KafkaUser's"));
        assertThat(password.key())
                .as("the password's key in Strimzi's user Secret")
                .isEqualTo("password");
        assertThat(ca.key()).as("the CA's key: PEM").isEqualTo("ca.crt");
        assertThat(ca.name())
                .as("the CA's Secret: that of the KafkaUser's cluster")
                .isEqualTo(user.metadata().labels().get(StrimziResources.CLUSTER_LABEL) + "-cluster-ca-cert");
        assertThat(renderedUsername(operators, authentication))
                .as("the user name KEDA logs in as, against the KafkaUser whose Secret gives the password")
                .isEqualTo(user.metadata().name())
                .as("KEDA's own user, not the sink's (which may join the group and write dead letters)")
                .isNotEqualTo(SINK);
    }

    /** The Secret reference of a TriggerAuthentication parameter; fails when it has none or several. */
    private static SecretTargetRef secretRef(TriggerAuthentication authentication, String parameter) {
        List<SecretTargetRef> refs = authentication.spec().secretTargetRef().stream()
                .filter(ref -> ref.parameter().equals(parameter))
                .toList();
        assertThat(refs)
                .as(
                        "secretTargetRef of parameter %s in %s",
                        parameter, authentication.metadata().getName())
                .hasSize(1);
        return refs.get(0);
    }

    /** The user name a TriggerAuthentication gives, from the rendered ConfigMap it names. */
    private static String renderedUsername(RenderedManifests rendered, TriggerAuthentication authentication) {
        ConfigMapTargetRef ref = Stream.ofNullable(authentication.spec().configMapTargetRef())
                .flatMap(List::stream)
                .filter(r -> r.parameter().equals("username"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no username from a ConfigMap in "
                        + authentication.metadata().getName()));
        return rendered.find(ConfigMap.class, ref.name())
                .map(map -> map.getData().get(ref.key()))
                .orElseThrow(() -> new AssertionError("no rendered ConfigMap " + ref.name()));
    }

    @Test
    void should_scale_within_the_partitions_in_the_cpu_hpas_steps_with_cpu_as_a_second_trigger() {
        RenderedManifests operators = rendered(OVERLAY);
        ScaledObject object = sinkScaledObject(operators);
        long partitions = sinkContainer(operators).longSetting("topic.partitions");
        assertThat((long) object.spec().maxReplicaCount())
                .as("maxReplicaCount against topic.partitions (instances beyond it get no partition)")
                .isLessThanOrEqualTo(partitions);
        assertThat(object.spec().minReplicaCount()).isBetween(1, object.spec().maxReplicaCount());

        HorizontalPodAutoscaler cpu = rendered("overlays/prod")
                .find(HorizontalPodAutoscaler.class, SINK)
                .orElseThrow();
        assertThat(object.spec().advanced().horizontalPodAutoscalerConfig().behavior())
                .as("the ScaledObject's HPA behavior against the CPU HPA's (each change rebalances the group)")
                .isEqualTo(cpu.getSpec().getBehavior());
        assertThat(object.spec().minReplicaCount()).isEqualTo(cpu.getSpec().getMinReplicas());
        assertThat(object.spec().maxReplicaCount()).isEqualTo(cpu.getSpec().getMaxReplicas());

        Trigger trigger = trigger(object, "cpu");
        assertThat(trigger.metricType()).isEqualTo("Utilization");
        assertThat(trigger.metadata().get("value"))
                .isEqualTo(String.valueOf(cpu.getSpec()
                        .getMetrics()
                        .get(0)
                        .getResource()
                        .getTarget()
                        .getAverageUtilization()));
        assertThat(object.spec().fallback().replicas()).isBetween(object.spec().minReplicaCount(), (int) partitions);
    }

    @Test
    void should_fail_naming_the_key_when_a_trigger_has_one_the_scaler_does_not_read() {
        String yaml = """
                apiVersion: keda.sh/v1alpha1
                kind: ScaledObject
                metadata:
                  name: s
                spec:
                  scaleTargetRef:
                    name: apiary-ingest-sink
                  triggers:
                    - type: kafka
                      metadata:
                        bootstrapServers: b:9092
                        consumerGroup: g
                        lagTreshold: "10"
                """;
        assertThatThrownBy(() -> StrictYaml.kubernetesObjects(yaml, "inline"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("inline, document 1")
                .hasMessageContaining("lagTreshold");
    }

    @Test
    void should_fail_naming_the_field_when_a_scaled_object_has_one_keda_does_not_define() {
        String misspelt = """
                apiVersion: keda.sh/v1alpha1
                kind: ScaledObject
                metadata:
                  name: s
                spec:
                  scaleTargetRef:
                    name: apiary-ingest-sink
                  maxReplicas: 3
                  triggers: []
                """;
        assertThatThrownBy(() -> StrictYaml.kubernetesObjects(misspelt, "inline"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("maxReplicas");

        String number = """
                apiVersion: keda.sh/v1alpha1
                kind: ScaledObject
                metadata:
                  name: s
                spec:
                  scaleTargetRef:
                    name: apiary-ingest-sink
                  triggers:
                    - type: kafka
                      metadata:
                        lagThreshold: 10
                """;
        assertThatThrownBy(() -> StrictYaml.kubernetesObjects(number, "inline"))
                .as("metadata values are strings in the API: an unquoted number is refused by the API server")
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("String");
    }
}
