package io.apiary.ingest.deploy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.openshift.api.model.monitoring.v1.PodMonitor;
import io.fabric8.openshift.api.model.monitoring.v1.PrometheusRule;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * Kinds that deploy/ uses beyond the fabric8 kubernetes-model on the test classpath (the custom
 * resources of operators), each with a strict parser: {@link StrictYaml#kubernetesObjects} reads
 * such a document as a {@link GenericKubernetesResource} and hands it to the parser of its
 * {@code apiVersion} and {@code kind}, which must fail (with an {@link AssertionError} naming
 * {@code where} and the path) on a field the kind's API does not define, as the API server would.
 * One entry per kind: KEDA's as records of the tests' own ({@link KedaResources}), the Prometheus
 * Operator's ({@code monitoring.coreos.com}) as fabric8's openshift-model-monitoring classes. Stateless and thread-safe.
 */
final class CustomKinds {

    /** By {@code apiVersion + " " + kind}: a parser of the generic object (the document, {@code where} for messages). */
    private static final Map<String, BiFunction<GenericKubernetesResource, String, HasMetadata>> PARSERS = Map.of(
            "keda.sh/v1alpha1 ScaledObject",
            KedaResources::checkScaledObject,
            "keda.sh/v1alpha1 TriggerAuthentication",
            KedaResources::checkTriggerAuthentication,
            "monitoring.coreos.com/v1 PodMonitor",
            (generic, where) -> StrictYaml.convert(generic, PodMonitor.class, where),
            "monitoring.coreos.com/v1 PrometheusRule",
            (generic, where) -> StrictYaml.convert(generic, PrometheusRule.class, where));

    private CustomKinds() {}

    /**
     * @param generic a document the fabric8 model does not know, not null
     * @param where   the source and document, for messages
     * @return the object as its kind's parser reads it, or empty if no parser knows its kind
     * @throws AssertionError if the parser finds a field the kind does not define, or a wrong type
     */
    static Optional<HasMetadata> parse(GenericKubernetesResource generic, String where) {
        BiFunction<GenericKubernetesResource, String, HasMetadata> parser =
                PARSERS.get(generic.getApiVersion() + " " + generic.getKind());
        return parser == null ? Optional.empty() : Optional.of(parser.apply(generic, where));
    }
}
