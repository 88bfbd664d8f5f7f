package io.apiary.ingest.it;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * What the broker knows of a consumer group (a sink group, or a Kafka Streams application, whose
 * members' partitions are those of their active tasks): who holds which partitions, and the
 * committed offsets. Reads through one Admin client; not thread-safe.
 */
public final class GroupView implements AutoCloseable {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private final Admin admin;
    private final String group;

    /**
     * @param clientSettings Kafka client settings (bootstrap servers), not null
     * @param group          the group id (a sink's {@code sink.group.id}, a topology's application id)
     */
    public GroupView(Map<String, Object> clientSettings, String group) {
        this.admin = Admin.create(clientSettings);
        this.group = group;
    }

    /**
     * @return the partitions each member holds, keyed by its client id (with Kafka Streams, the
     *     stream thread's consumer: {@code <client.id>-StreamThread-<n>-consumer}); empty while the group
     *     is not stable (a rebalance in progress, or no member)
     */
    public Map<String, Set<TopicPartition>> stableAssignment() {
        ConsumerGroupDescription description = get(
                admin.describeConsumerGroups(List.of(group)).describedGroups().get(group));
        Map<String, Set<TopicPartition>> out = new TreeMap<>();
        if (description.groupState() != GroupState.STABLE) {
            return out;
        }
        for (MemberDescription member : description.members()) {
            out.computeIfAbsent(member.clientId(), k -> new HashSet<>())
                    .addAll(member.assignment().topicPartitions());
        }
        return out;
    }

    /**
     * @param members how many members
     * @param all     partitions the group reads
     * @return whether the group is stable with exactly that many members, each holding some partitions,
     *     together all of them
     */
    public boolean stableWith(int members, Set<TopicPartition> all) {
        Map<String, Set<TopicPartition>> assignment = stableAssignment();
        Set<TopicPartition> union = new HashSet<>();
        assignment.values().forEach(union::addAll);
        return assignment.size() == members
                && assignment.values().stream().noneMatch(Set::isEmpty)
                && union.equals(all);
    }

    /**
     * @param prefix a client id prefix
     * @return the partitions held, in a stable group, by the members whose client id starts with it
     */
    public Set<TopicPartition> heldBy(String prefix) {
        Set<TopicPartition> held = new HashSet<>();
        stableAssignment().forEach((client, partitions) -> {
            if (client.startsWith(prefix)) {
                held.addAll(partitions);
            }
        });
        return held;
    }

    /** @return the group's committed offset of each partition it has committed */
    public Map<TopicPartition, Long> committed() {
        Map<TopicPartition, Long> out = new HashMap<>();
        get(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata())
                .forEach((partition, offset) -> {
                    if (offset != null) {
                        out.put(partition, offset.offset());
                    }
                });
        return out;
    }

    /**
     * @param partitions partitions
     * @return the log end offset of each
     */
    public Map<TopicPartition, Long> endOffsets(Set<TopicPartition> partitions) {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        partitions.forEach(p -> request.put(p, OffsetSpec.latest()));
        Map<TopicPartition, Long> out = new HashMap<>();
        get(admin.listOffsets(request).all()).forEach((p, info) -> out.put(p, info.offset()));
        return out;
    }

    /**
     * @param topics topics
     * @return every partition of them
     */
    public Set<TopicPartition> partitionsOf(List<String> topics) {
        Set<TopicPartition> out = new HashSet<>();
        get(admin.describeTopics(topics).allTopicNames())
                .forEach((name, d) -> d.partitions().forEach(p -> out.add(new TopicPartition(name, p.partition()))));
        return out;
    }

    /**
     * @param targets partitions and offsets
     * @return whether the group's committed offset of every one of them is at least its target (a
     *     partition without a committed offset counts as 0: an empty partition may never get one)
     */
    public boolean committedAtLeast(Map<TopicPartition, Long> targets) {
        Map<TopicPartition, Long> committed = committed();
        return targets.entrySet().stream().allMatch(e -> committed.getOrDefault(e.getKey(), 0L) >= e.getValue());
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
    }

    private static <T> T get(KafkaFuture<T> future) {
        try {
            return future.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Kafka's Admin API did not answer: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
