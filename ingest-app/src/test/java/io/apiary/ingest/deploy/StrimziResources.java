package io.apiary.ingest.deploy;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.databind.json.JsonMapper;

/**
 * Strimzi's KafkaTopic and KafkaUser as the deploy/ tests read their content: each rendered object
 * is first read strictly by Strimzi's own model ({@link StrimziModel}), then what that model
 * writes back (its spellings of enums, its defaults) is read into the records below, which name
 * only the fields the tests look at. Stateless and thread-safe.
 */
final class StrimziResources {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** The label that ties a KafkaTopic or KafkaUser to its Kafka cluster (the Kafka resource's name). */
    static final String CLUSTER_LABEL = "strimzi.io/cluster";

    /** Metadata the tests look at. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Meta(String name, String namespace, Map<String, String> labels) {}

    /** A KafkaTopic: {@code spec.topicName} (null: the resource's name), partitions, replicas, configs. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record KafkaTopic(String apiVersion, String kind, Meta metadata, TopicSpec spec) {

        /** @return the Kafka topic's name: {@code spec.topicName}, else the resource's name */
        String topicName() {
            return spec.topicName() != null ? spec.topicName() : metadata.name();
        }
    }

    /** The spec of a KafkaTopic; config values as Strimzi keeps them (strings, numbers or booleans). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record TopicSpec(String topicName, Integer partitions, Integer replicas, Map<String, Object> config) {}

    /** A KafkaUser. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record KafkaUser(String apiVersion, String kind, Meta metadata, UserSpec spec) {}

    /** The spec of a KafkaUser. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record UserSpec(Authentication authentication, Authorization authorization) {}

    /** {@code spec.authentication}: its type ({@code scram-sha-512}, {@code tls}, ...). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Authentication(String type) {}

    /** {@code spec.authorization}: its type ({@code simple}) and ACL rules. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Authorization(String type, List<Acl> acls) {}

    /**
     * One ACL rule.
     *
     * @param type       {@code allow} or {@code deny} (Strimzi's default: allow)
     * @param resource   what it is on
     * @param host       the client host ({@code *}: any)
     * @param operations Kafka ACL operations as Strimzi spells them ({@code Read}, {@code Write}, ...)
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Acl(String type, AclResource resource, String host, List<String> operations) {

        /** Strimzi's defaults, which its model leaves out when it writes a rule: allow, from any host. */
        Acl {
            type = type == null ? "allow" : type;
            host = host == null ? "*" : host;
        }
    }

    /**
     * The resource of an ACL rule.
     *
     * @param type        {@code topic}, {@code group}, {@code transactionalId} or {@code cluster}
     * @param name        its name or prefix (null for the cluster)
     * @param patternType {@code literal} or {@code prefix} (null for the cluster)
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record AclResource(String type, String name, String patternType) {

        /** Strimzi's default pattern, which its model leaves out when it writes a rule: literal (not for the cluster). */
        AclResource {
            patternType = patternType == null && !"cluster".equals(type) ? "literal" : patternType;
        }

        /** @return e.g. {@code topic rows.hive_telemetry.v1 (literal)} */
        @Override
        public String toString() {
            return type + " " + name + " (" + patternType + ")";
        }
    }

    private StrimziResources() {}

    /**
     * @param rendered rendered objects
     * @return their KafkaTopics (any Strimzi API version), read by Strimzi's model and then as records
     */
    static List<KafkaTopic> topics(RenderedManifests rendered) {
        return of(rendered, "KafkaTopic", KafkaTopic.class);
    }

    /**
     * @param rendered rendered objects
     * @return their KafkaUsers (any Strimzi API version), read by Strimzi's model and then as records
     */
    static List<KafkaUser> users(RenderedManifests rendered) {
        return of(rendered, "KafkaUser", KafkaUser.class);
    }

    /**
     * @param rendered rendered objects
     * @return whether any is of Strimzi's API group ({@code kafka.strimzi.io})
     */
    static boolean anyStrimziObject(RenderedManifests rendered) {
        return rendered.objects().stream().anyMatch(o -> o.getApiVersion().startsWith("kafka.strimzi.io/"));
    }

    /**
     * @param user a KafkaUser
     * @return its rules as {@code resource -> operations}, sorted; fails on a resource named twice
     */
    static Map<String, Set<String>> aclsByResource(KafkaUser user) {
        Map<String, Set<String>> rules = new java.util.TreeMap<>();
        for (Acl acl : user.spec().authorization().acls()) {
            Set<String> previous = rules.put(acl.resource().toString(), new TreeSet<>(acl.operations()));
            if (previous != null) {
                throw new AssertionError("KafkaUser " + user.metadata().name() + ": " + acl.resource()
                        + " in two rules; give each resource one rule");
            }
        }
        return rules;
    }

    private static <T> List<T> of(RenderedManifests rendered, String kind, Class<T> type) {
        return rendered.objects().stream()
                .filter(o -> StrimziModel.API_VERSIONS.contains(o.getApiVersion()) && kind.equals(o.getKind()))
                .map(o -> read(o, kind, type))
                .toList();
    }

    private static <T> T read(HasMetadata object, String kind, Class<T> type) {
        String where = kind + " " + object.getMetadata().getName();
        Object model = StrimziModel.read(JSON.writeValueAsString(object), kind, where);
        return JSON.readValue(StrimziModel.toJson(model), type);
    }
}
