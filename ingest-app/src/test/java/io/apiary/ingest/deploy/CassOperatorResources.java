package io.apiary.ingest.deploy;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.Volume;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * cass-operator's CassandraDatacenter ({@code cassandra.datastax.com/v1beta1}) as records of the
 * fields its API defines, for {@link StrictYaml#convert}, and the names cass-operator derives from
 * it. cass-operator publishes no Java model (none on Maven Central that we know of), and its CRD is
 * not available offline here, so the records are written by hand after the Go type
 * {@code CassandraDatacenterSpec} of k8ssandra/cass-operator ({@code apis/cassandra/v1beta1/cassandradatacenter_types.go}),
 * with its JSON names; Kubernetes types inside (resources, claims, pod template) are the fabric8
 * model's, walked for unknown fields as well. The CRD keeps unknown fields of the spec
 * ({@code x-kubernetes-preserve-unknown-fields}), so the API server would accept a misspelt
 * {@code storgeConfig} that cass-operator then ignores: these records refuse it. {@code config}
 * is free-form JSON in the API (cassandra.yaml and JVM options by file), a map here. Stateless and
 * thread-safe.
 */
final class CassOperatorResources {

    /** cass-operator's native (CQL) port, on its datacenter Service. */
    static final int NATIVE_PORT = 9042;

    /** cass-operator's pattern of serverVersion (3.11, 4.x, 5.x of Cassandra; DSE 6.8/6.9; HCD 1.x). */
    private static final Pattern SERVER_VERSION =
            Pattern.compile("(6\\.[89]\\.\\d+)|(3\\.11\\.\\d+)|(4\\.\\d+\\.\\d+)|(5\\.\\d+\\.\\d+)|(1\\.\\d+\\.\\d+)");

    private static final Pattern DNS_1035_LABEL = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");

    /** A CassandraDatacenter. */
    record CassandraDatacenter(String apiVersion, String kind, ObjectMeta metadata, Spec spec) {

        /** @return Cassandra's name of the datacenter: {@code spec.datacenterName}, else {@code metadata.name} */
        String datacenterName() {
            return spec.datacenterName() != null && !spec.datacenterName().isEmpty()
                    ? spec.datacenterName()
                    : metadata.getName();
        }

        /** @return the Service clients connect to: {@code <clusterName>-<metadata.name>-service} (cass-operator's GetDatacenterServiceName) */
        String serviceName() {
            return cleanupForKubernetes(spec.clusterName()) + "-" + cleanupForKubernetes(metadata.getName())
                    + "-service";
        }

        /** @return the superuser Secret: {@code spec.superuserSecretName}, else {@code <clusterName>-superuser} */
        String superuserSecretName() {
            return spec.superuserSecretName() != null
                            && !spec.superuserSecretName().isEmpty()
                    ? spec.superuserSecretName()
                    : cleanupForKubernetes(spec.clusterName()) + "-superuser";
        }
    }

    /** The spec of a CassandraDatacenter (CassandraDatacenterSpec; deprecated fields left out). */
    record Spec(
            Integer size,
            String serverVersion,
            String serverImage,
            String serverType,
            Map<String, Object> config,
            String configSecret,
            ManagementApiAuth managementApiAuth,
            Map<String, String> nodeAffinityLabels,
            ResourceRequirements resources,
            ResourceRequirements systemLoggerResources,
            ResourceRequirements configBuilderResources,
            List<Rack> racks,
            StorageConfig storageConfig,
            String clusterName,
            Boolean stopped,
            String configBuilderImage,
            Boolean canaryUpgrade,
            Integer canaryUpgradeCount,
            Boolean allowMultipleNodesPerWorker,
            String superuserSecretName,
            String serviceAccountName,
            Map<String, String> nodeSelector,
            List<String> forceUpgradeRacks,
            PodTemplateSpec podTemplateSpec,
            List<User> users,
            Networking networking,
            List<String> additionalSeeds,
            Boolean disableSystemLoggerSidecar,
            String systemLoggerImage,
            List<Toleration> tolerations,
            Map<String, String> additionalLabels,
            Map<String, String> additionalAnnotations,
            String datacenterName,
            Integer minReadySeconds,
            Boolean readOnlyRootFilesystem) {}

    /** A rack: a failure domain, pinned by node labels or affinity. */
    record Rack(String name, Map<String, String> nodeAffinityLabels, Affinity affinity) {}

    /** Persistent storage of each node. */
    record StorageConfig(
            PersistentVolumeClaimSpec cassandraDataVolumeClaimSpec, List<AdditionalVolume> additionalVolumes) {}

    /**
     * A further volume of each node: a claim, or a volume source such as a Secret with a keystore.
     * The fabric8 model has no VolumeSource type of its own: {@link Volume} holds the same sources
     * (and a name, which a volume source would not have).
     */
    record AdditionalVolume(String mountPath, String name, PersistentVolumeClaimSpec pvcSpec, Volume volumeSource) {}

    /** A Cassandra role cass-operator creates from a Secret (keys username, password) of the datacenter's namespace. */
    record User(String secretName, Boolean superuser) {}

    /** Host network or NodePorts. */
    record Networking(NodePort nodePort, Boolean hostNetwork) {}

    /** NodePort numbers. */
    record NodePort(
            @JsonProperty("native") Integer nativePort, Integer nativeSSL, Integer internode, Integer internodeSSL) {}

    /** Certificates of the management API: insecure (empty object) or manual Secrets. */
    record ManagementApiAuth(Map<String, Object> insecure, ManualAuth manual) {}

    /** The management API's client and server certificate Secrets. */
    record ManualAuth(String clientSecretName, String serverSecretName, Boolean skipSecretValidation) {}

    private CassOperatorResources() {}

    /**
     * cass-operator's CleanupForKubernetes: a name that is not a DNS-1035 label is lowercased, its
     * '_' made '-', and only the label-shaped runs of it kept.
     *
     * @param name a cluster or datacenter name, not null
     * @return the name as cass-operator uses it in object names
     */
    static String cleanupForKubernetes(String name) {
        if (name.length() <= 63 && DNS_1035_LABEL.matcher(name).matches()) {
            return name;
        }
        Matcher matcher = DNS_1035_LABEL.matcher(name.toLowerCase(Locale.ROOT).replace('_', '-'));
        StringBuilder kept = new StringBuilder();
        while (matcher.find()) {
            kept.append(matcher.group());
        }
        return kept.toString();
    }

    /**
     * @param generic a {@code cassandra.datastax.com/v1beta1 CassandraDatacenter} document, not null
     * @param where   the source and document, for messages
     * @return the document, after a strict conversion into {@link CassandraDatacenter}
     * @throws AssertionError naming the field that the API does not define, or a missing required one
     */
    static HasMetadata checkDatacenter(GenericKubernetesResource generic, String where) {
        CassandraDatacenter dc = StrictYaml.convert(generic, CassandraDatacenter.class, where);
        if (dc.spec() == null
                || dc.spec().clusterName() == null
                || dc.spec().serverType() == null
                || dc.spec().serverVersion() == null
                || dc.spec().size() == null
                || dc.spec().storageConfig() == null) {
            throw new AssertionError(where + ": a CassandraDatacenter needs spec.clusterName, serverType, "
                    + "serverVersion, size and storageConfig");
        }
        if (!List.of("cassandra", "dse", "hcd").contains(dc.spec().serverType())) {
            throw new AssertionError(
                    where + ": spec.serverType " + dc.spec().serverType() + " is none of cassandra, dse, hcd");
        }
        if (!SERVER_VERSION.matcher(dc.spec().serverVersion()).find()) {
            throw new AssertionError(where + ": spec.serverVersion " + dc.spec().serverVersion()
                    + " does not match cass-operator's pattern " + SERVER_VERSION);
        }
        if (dc.spec().size() < 1 || dc.spec().clusterName().length() < 2) {
            throw new AssertionError(where + ": spec.size must be at least 1 and spec.clusterName 2 characters");
        }
        return generic;
    }

    /**
     * @param rendered rendered objects
     * @return the CassandraDatacenters among them, as records
     */
    static List<CassandraDatacenter> datacenters(RenderedManifests rendered) {
        return rendered.objects().stream()
                .filter(o -> "cassandra.datastax.com/v1beta1".equals(o.getApiVersion())
                        && "CassandraDatacenter".equals(o.getKind()))
                .map(o -> StrictYaml.convert(
                        o,
                        CassandraDatacenter.class,
                        "CassandraDatacenter " + o.getMetadata().getName()))
                .toList();
    }
}
