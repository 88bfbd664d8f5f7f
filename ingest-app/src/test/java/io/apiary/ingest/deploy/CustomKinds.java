package io.apiary.ingest.deploy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.openshift.api.model.monitoring.v1.PodMonitor;
import io.fabric8.openshift.api.model.monitoring.v1.PrometheusRule;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * Kinds that deploy/ uses beyond the fabric8 kubernetes-model on the test classpath (the custom
 * resources of operators), each with a strict parser: {@link StrictYaml#kubernetesObjects} reads
 * such a document as a {@link GenericKubernetesResource} and hands it to the parser of its
 * {@code apiVersion} and {@code kind}, which must fail (with an {@link AssertionError} naming
 * {@code where} and the path) on a field the kind's API does not define, as the API server would.
 * One entry per kind: KEDA's and cass-operator's as records of the tests' own ({@link KedaResources},
 * {@link CassOperatorResources}), Strimzi's as its own API model ({@link StrimziModel}), the
 * Prometheus Operator's ({@code monitoring.coreos.com}) as fabric8's openshift-model-monitoring
 * classes. Stateless and thread-safe.
 */
final class CustomKinds {

    /** By {@code apiVersion + " " + kind}: a parser of the generic object (the document, {@code where} for messages). */
    private static final Map<String, BiFunction<GenericKubernetesResource, String, HasMetadata>> PARSERS = parsers();

    private CustomKinds() {}

    private static Map<String, BiFunction<GenericKubernetesResource, String, HasMetadata>> parsers() {
        Map<String, BiFunction<GenericKubernetesResource, String, HasMetadata>> parsers = new HashMap<>();
        parsers.put("keda.sh/v1alpha1 ScaledObject", KedaResources::checkScaledObject);
        parsers.put("keda.sh/v1alpha1 TriggerAuthentication", KedaResources::checkTriggerAuthentication);
        parsers.put("cassandra.datastax.com/v1beta1 CassandraDatacenter", CassOperatorResources::checkDatacenter);
        parsers.put(
                "monitoring.coreos.com/v1 PodMonitor",
                (generic, where) -> StrictYaml.convert(generic, PodMonitor.class, where));
        parsers.put(
                "monitoring.coreos.com/v1 PrometheusRule",
                (generic, where) -> StrictYaml.convert(generic, PrometheusRule.class, where));
        // Strimzi's own API model (io.strimzi:api), loaded apart from the test classpath
        for (String apiVersion : StrimziModel.API_VERSIONS) {
            for (String kind : StrimziModel.MODEL_CLASSES.keySet()) {
                parsers.put(apiVersion + " " + kind, StrimziModel::check);
            }
        }
        return Map.copyOf(parsers);
    }

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
