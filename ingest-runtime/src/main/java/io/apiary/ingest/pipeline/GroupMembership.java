package io.apiary.ingest.pipeline;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.config.OptionGroup;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.StreamsConfig;

/**
 * How the topology's and the sink's Kafka consumers belong to their groups, so that a rolling restart
 * does not stall: <b>static</b> membership (Kafka's {@code group.instance.id}, KIP-345) under
 * {@value #INSTANCE_ID} where an instance has a stable identity, e.g. a StatefulSet pod's name; a
 * static member stays in the group when it closes, and the broker hands its partitions back to the
 * member that joins again under the same id within the session timeout, without waiting for the
 * old member to expire; the other members keep theirs. Otherwise <b>dynamic</b> membership, and a clean
 * close leaves the group, so the others take its partitions over at once instead of after the
 * session timeout (Kafka Streams does not leave on close unless told: {@link #onClose}). The
 * topology keeps the classic group protocol, which the quiet rule's {@code InputProgress} needs.
 * Measured restart times: docs/performance.md, "Rolling restarts".
 *
 * <p>Part of {@link IngestConfig#definition()}, loaded as an {@link OptionGroup} service.
 * Thread-safe (stateless).
 */
public final class GroupMembership implements OptionGroup {

    /** Option name: {@value}. */
    public static final String INSTANCE_ID = "instance.id";

    /**
     * Kafka's rule for a {@code group.instance.id} ({@code JoinGroupRequest.validateGroupInstanceId}:
     * at most 249 of these characters), less room for the {@code -<thread>} that Kafka Streams appends.
     */
    private static final Pattern VALID = Pattern.compile("[a-zA-Z0-9._-]{1,200}");

    /** The keys under which Kafka Streams takes its main consumer's {@code group.instance.id}. */
    private static final List<String> STREAMS_INSTANCE_ID_KEYS = List.of(
            ConsumerConfig.GROUP_INSTANCE_ID_CONFIG,
            StreamsConfig.consumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG),
            StreamsConfig.mainConsumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG));

    /** For the service loader. */
    public GroupMembership() {}

    @Override
    public void define(ConfigDef definition) {
        definition.define(
                INSTANCE_ID,
                Type.STRING,
                "",
                new ConfigDef.Validator() {
                    @Override
                    public void ensureValid(String name, Object value) {
                        String id = value == null ? "" : value.toString();
                        if (!id.isEmpty() && !VALID.matcher(id).matches()) {
                            throw new ConfigException(
                                    name,
                                    value,
                                    "an instance id is letters, digits, '.', '_' and '-', at most 200 characters"
                                            + " (a Kubernetes pod name is); leave it empty where instances have no"
                                            + " stable identity");
                        }
                    }

                    @Override
                    public String toString() {
                        return "empty, or [a-zA-Z0-9._-], at most 200 characters";
                    }
                },
                Importance.MEDIUM,
                "This instance's stable identity, for static group membership (Kafka's group.instance.id): the "
                        + "topology's consumers join under it with '-' and their stream thread's number, the sink's "
                        + "under it as is. On a clean stop "
                        + "the instance stays in its groups, and started again under the same id within the "
                        + "session timeout (streams.session.timeout.ms, sink.consumer.session.timeout.ms; Kafka's "
                        + "default, 45 s) it gets its partitions back at once, not after the old member expires; an instance that stays "
                        + "away longer, or for good (a scale-down), holds its partitions unprocessed until then. "
                        + "Set it only where each instance keeps one identity that no other instance has at the "
                        + "same time: a StatefulSet pod's name (deploy/ passes it from the downward API), never "
                        + "a Deployment's pods, whose names change with every restart. Empty (the default): "
                        + "dynamic membership; the topology and the sink leave their groups on a clean stop, so "
                        + "the others take their partitions over at once.");
    }

    /**
     * @param config the configuration, not null
     * @return the instance id of {@value #INSTANCE_ID}, or empty where it is not set
     */
    public static Optional<String> instanceId(IngestConfig config) {
        String id = config.getString(INSTANCE_ID).trim();
        return id.isEmpty() ? Optional.empty() : Optional.of(id);
    }

    /**
     * Gives the topology's main consumers the instance id, if one is set; Kafka Streams appends
     * {@code -<thread number>} for each stream thread. Called before the {@code streams.*}
     * pass-through, which may still set {@code main.consumer.group.instance.id} itself.
     *
     * @param streams the Kafka Streams properties being built, not null; changed
     * @param config  the configuration, not null
     */
    static void applyToStreams(Properties streams, IngestConfig config) {
        instanceId(config)
                .ifPresent(id ->
                        streams.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG), id));
    }

    /**
     * Gives the sink's consumer the instance id, if one is set. Called before the
     * {@code sink.consumer.*} pass-through.
     *
     * @param consumer the consumer settings being built, not null; changed
     * @param config   the configuration, not null
     */
    static void applyToConsumer(Map<String, Object> consumer, IngestConfig config) {
        instanceId(config).ifPresent(id -> consumer.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, id));
    }

    /**
     * @param streams the topology's Kafka Streams properties, pass-throughs included, not null
     * @return whether its main consumers are static members: a non-empty {@code group.instance.id} under any
     *     key Kafka Streams reads it from
     */
    public static boolean isStatic(Properties streams) {
        return STREAMS_INSTANCE_ID_KEYS.stream()
                .map(streams::get)
                .anyMatch(value -> value != null && !value.toString().isBlank());
    }

    /**
     * How the topology closes: a static member stays in the group (its restart under the same id resumes
     * without waiting for it to expire); a dynamic one leaves, so the others take its tasks over at once. Kafka Streams'
     * own default is to stay in either case.
     *
     * @param streams the topology's Kafka Streams properties, pass-throughs included, not null
     * @return the operation for {@link org.apache.kafka.streams.KafkaStreams#close(CloseOptions)}
     */
    public static CloseOptions.GroupMembershipOperation onClose(Properties streams) {
        return isStatic(streams)
                ? CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP
                : CloseOptions.GroupMembershipOperation.LEAVE_GROUP;
    }
}
