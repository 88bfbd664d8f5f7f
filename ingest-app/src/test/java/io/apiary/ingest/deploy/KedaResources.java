package io.apiary.ingest.deploy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscalerBehavior;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * KEDA's custom resources ({@code keda.sh/v1alpha1}, KEDA 2.10 and later) as records of the fields
 * their CRDs define, for {@link StrictYaml#convert}: KEDA publishes no Java model, so the fields are
 * those of KEDA's ScaledObject and TriggerAuthentication specifications (keda.sh/docs, "ScaledObject
 * specification" and "TriggerAuthentication"), of which deploy/ may use any; the HPA behavior is the
 * fabric8 model's. A trigger's {@code metadata} is a map of strings in the API, which KEDA does not
 * check: a misspelt {@code lagTreshold} would be ignored and the default lag target of 10 records
 * used, so the Kafka and CPU triggers' keys are checked against the scalers' documented parameters
 * here. Stateless and thread-safe.
 */
final class KedaResources {

    /** Trigger metadata keys of KEDA's Kafka scaler (keda.sh/docs, scalers "Apache Kafka"). */
    static final Set<String> KAFKA_METADATA = Set.of(
            "bootstrapServers",
            "bootstrapServersFromEnv",
            "consumerGroup",
            "consumerGroupFromEnv",
            "topic",
            "topicFromEnv",
            "partitionLimitation",
            "lagThreshold",
            "activationLagThreshold",
            "offsetResetPolicy",
            "allowIdleConsumers",
            "excludePersistentLag",
            "scaleToZeroOnInvalidOffset",
            "limitToPartitionsWithLag",
            "version",
            "sasl",
            "tls",
            "unsafeSsl");

    /** Trigger metadata keys of KEDA's CPU scaler (the metric type is a trigger field). */
    static final Set<String> CPU_METADATA = Set.of("value", "containerName");

    /** Parameters of a TriggerAuthentication that KEDA's Kafka scaler reads. */
    static final Set<String> KAFKA_AUTH_PARAMETERS =
            Set.of("sasl", "username", "password", "tls", "ca", "cert", "key", "keyPassword", "unsafeSsl");

    /** A ScaledObject: scales a Deployment or StatefulSet by its triggers, through an HPA that KEDA owns. */
    record ScaledObject(String apiVersion, String kind, ObjectMeta metadata, ScaledObjectSpec spec) {}

    /** The spec of a ScaledObject. */
    record ScaledObjectSpec(
            ScaleTargetRef scaleTargetRef,
            Integer pollingInterval,
            Integer cooldownPeriod,
            Integer initialCooldownPeriod,
            Integer idleReplicaCount,
            Integer minReplicaCount,
            Integer maxReplicaCount,
            Fallback fallback,
            Advanced advanced,
            List<Trigger> triggers) {}

    /** The workload scaled. */
    record ScaleTargetRef(String apiVersion, String kind, String name, String envSourceContainerName) {}

    /** Replicas held when a trigger fails {@code failureThreshold} times in a row. */
    record Fallback(Integer failureThreshold, Integer replicas, String behavior) {}

    /** Options of the HPA that KEDA makes, and formulas over the triggers. */
    record Advanced(
            Boolean restoreToOriginalReplicaCount,
            HorizontalPodAutoscalerConfig horizontalPodAutoscalerConfig,
            ScalingModifiers scalingModifiers) {}

    /** The HPA's name and scaling behavior. */
    record HorizontalPodAutoscalerConfig(String name, HorizontalPodAutoscalerBehavior behavior) {}

    /** A formula over the triggers' metrics. */
    record ScalingModifiers(String formula, String target, String activationTarget, String metricType) {}

    /** One trigger: a scaler's type, its metadata (strings), its credentials. */
    record Trigger(
            String type,
            String name,
            Map<String, String> metadata,
            AuthenticationRef authenticationRef,
            String metricType,
            Boolean useCachedMetrics) {}

    /** A TriggerAuthentication (or ClusterTriggerAuthentication) by name. */
    record AuthenticationRef(String name, String kind) {}

    /** A TriggerAuthentication: a scaler's parameters from Secrets, ConfigMaps or the target's environment. */
    record TriggerAuthentication(String apiVersion, String kind, ObjectMeta metadata, TriggerAuthenticationSpec spec) {}

    /** The sources of a TriggerAuthentication's parameters that deploy/ may use. */
    record TriggerAuthenticationSpec(
            List<SecretTargetRef> secretTargetRef, List<EnvRef> env, List<ConfigMapTargetRef> configMapTargetRef) {}

    /** A parameter from a key of a Secret. */
    record SecretTargetRef(String parameter, String name, String key) {}

    /** A parameter from an environment variable of the scale target's container. */
    record EnvRef(String parameter, String name, String containerName) {}

    /** A parameter from a key of a ConfigMap. */
    record ConfigMapTargetRef(String parameter, String name, String key) {}

    private KedaResources() {}

    /**
     * @param generic a {@code keda.sh/v1alpha1 ScaledObject} document, not null
     * @param where   the source and document, for messages
     * @return the document, after a strict conversion into {@link ScaledObject} and a check of each
     *         Kafka and CPU trigger's metadata keys
     * @throws AssertionError naming the field or key that the API or the scaler does not define
     */
    static HasMetadata checkScaledObject(GenericKubernetesResource generic, String where) {
        ScaledObject object = StrictYaml.convert(generic, ScaledObject.class, where);
        if (object.spec() == null
                || object.spec().scaleTargetRef() == null
                || object.spec().triggers() == null) {
            throw new AssertionError(where + ": a ScaledObject needs spec.scaleTargetRef and spec.triggers");
        }
        for (int i = 0; i < object.spec().triggers().size(); i++) {
            Trigger trigger = object.spec().triggers().get(i);
            Set<String> known = switch (trigger.type()) {
                case "kafka" -> KAFKA_METADATA;
                case "cpu", "memory" -> CPU_METADATA;
                default -> null;
            };
            if (known != null && trigger.metadata() != null) {
                Set<String> unknown = new TreeSet<>(trigger.metadata().keySet());
                unknown.removeAll(known);
                if (!unknown.isEmpty()) {
                    throw new AssertionError(where + ": spec.triggers[" + i + "] (" + trigger.type()
                            + "): metadata keys the scaler does not read (KEDA would ignore them): " + unknown);
                }
            }
        }
        return generic;
    }

    /**
     * @param generic a {@code keda.sh/v1alpha1 TriggerAuthentication} document, not null
     * @param where   the source and document, for messages
     * @return the document, after a strict conversion into {@link TriggerAuthentication}
     * @throws AssertionError naming the field the API does not define
     */
    static HasMetadata checkTriggerAuthentication(GenericKubernetesResource generic, String where) {
        StrictYaml.convert(generic, TriggerAuthentication.class, where);
        return generic;
    }

    /**
     * @param rendered rendered objects
     * @return the ScaledObjects among them, as records
     */
    static List<ScaledObject> scaledObjects(RenderedManifests rendered) {
        return rendered.objects().stream()
                .filter(o -> "keda.sh/v1alpha1".equals(o.getApiVersion()) && "ScaledObject".equals(o.getKind()))
                .map(o -> StrictYaml.convert(
                        o, ScaledObject.class, "ScaledObject " + o.getMetadata().getName()))
                .toList();
    }

    /**
     * @param rendered rendered objects
     * @return the TriggerAuthentications among them, as records
     */
    static List<TriggerAuthentication> triggerAuthentications(RenderedManifests rendered) {
        return rendered.objects().stream()
                .filter(o ->
                        "keda.sh/v1alpha1".equals(o.getApiVersion()) && "TriggerAuthentication".equals(o.getKind()))
                .map(o -> StrictYaml.convert(
                        o,
                        TriggerAuthentication.class,
                        "TriggerAuthentication " + o.getMetadata().getName()))
                .toList();
    }
}
