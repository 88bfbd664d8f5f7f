package io.apiary.ingest.pipeline;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.topics.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the pipeline's topics that do not exist yet, with the configured partition count and
 * replication factor and {@link Topics#TOPIC_CONFIGS}; existing topics are left as they are. Internal topics of Kafka Streams
 * (changelogs) are created by Streams itself. Thread-safe (stateless).
 */
public final class TopicProvisioner {

    private static final Logger LOG = LoggerFactory.getLogger(TopicProvisioner.class);

    private TopicProvisioner() {}

    /**
     * The topic to create for a name, with the configured partitions and replication factor (absent for -1:
     * the broker's default) and {@link Topics#TOPIC_CONFIGS}.
     *
     * @param name   the topic's name, not null
     * @param config the configuration, not null
     * @return the new topic's description (nothing is created)
     * @throws IllegalArgumentException if the partitions are below 1 or the replication factor is 0 or below -1
     */
    public static NewTopic newTopic(String name, IngestConfig config) {
        int partitions = config.getInt(IngestConfig.TOPIC_PARTITIONS);
        short replication = config.getShort(IngestConfig.TOPIC_REPLICATION_FACTOR);
        if (partitions < 1 || replication == 0 || replication < -1) {
            // NewTopic takes any number; Kafka would refuse it only when asked to create the topic
            throw new IllegalArgumentException("topic " + name + ": " + IngestConfig.TOPIC_PARTITIONS + " ("
                    + partitions + ") must be at least 1 and " + IngestConfig.TOPIC_REPLICATION_FACTOR + " ("
                    + replication + ") -1 or at least 1");
        }
        return new NewTopic(
                        name, Optional.of(partitions), replication < 0 ? Optional.empty() : Optional.of(replication))
                .configs(Topics.TOPIC_CONFIGS);
    }

    /**
     * @param admin  an admin client, not null
     * @param config the configuration (topic names, partitions, replication factor)
     * @return names of the topics created
     * @throws KafkaException if Kafka refuses or does not answer within 60 s
     */
    public static List<String> createMissing(Admin admin, IngestConfig config) {
        Topics topics = config.topics();
        int partitions = config.getInt(IngestConfig.TOPIC_PARTITIONS);
        List<String> wanted = topics.all();
        try {
            Set<String> existing = admin.listTopics().names().get(60, TimeUnit.SECONDS);
            List<NewTopic> missing = new ArrayList<>();
            for (String name : wanted) {
                if (!existing.contains(name)) {
                    missing.add(newTopic(name, config));
                }
            }
            if (missing.isEmpty()) {
                return List.of();
            }
            List<String> created = new ArrayList<>();
            admin.createTopics(missing).values().forEach((name, future) -> {
                try {
                    future.get(60, TimeUnit.SECONDS);
                    created.add(name);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new KafkaException(
                                "Cannot create topic " + name + ": "
                                        + e.getCause().getMessage(),
                                e);
                    }
                } catch (InterruptedException | TimeoutException e) {
                    throw new KafkaException("Creating topic " + name + " did not finish: " + e, e);
                }
            });
            LOG.info("Created topics {} ({} partitions each)", created, partitions);
            return created;
        } catch (ExecutionException | TimeoutException e) {
            throw new KafkaException(
                    "Cannot list Kafka topics (is " + IngestConfig.KAFKA_BOOTSTRAP_SERVERS + " right?): " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted while creating topics", e);
        }
    }

    /**
     * Waits until every partition of the topics has a leader: right after creation a topic may
     * not be known to every broker yet, and producers that write at once can fail.
     *
     * @param admin   an admin client, not null
     * @param topics  topic names
     * @param timeout longest wait
     * @throws KafkaException if a partition has no leader after the timeout, or if interrupted
     */
    public static void awaitLeaders(Admin admin, Collection<String> topics, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (true) {
                boolean ready;
                try {
                    ready = admin.describeTopics(topics).allTopicNames().get().values().stream()
                            .allMatch(d -> d.partitions().stream().allMatch(p -> p.leader() != null));
                } catch (ExecutionException e) {
                    ready = false; // not known to every broker yet
                }
                if (ready) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw new KafkaException("Topics without a leader after " + timeout.toSeconds() + " s: " + topics);
                }
                TimeUnit.MILLISECONDS.sleep(100);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted while waiting for topic leaders", e);
        }
    }
}
