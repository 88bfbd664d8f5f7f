package io.apiary.ingest.cli;

import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.dump.RecordJsonFormatter;
import io.apiary.ingest.importer.KafkaReachability;
import io.apiary.ingest.topics.Topics;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code dump}: prints a topic's records as JSON lines on stdout (format: {@link RecordJsonFormatter}),
 * a count on stderr. Reads every partition by assignment, without a consumer group and without
 * committing offsets, with {@code isolation.level=read_committed} (the topology writes
 * transactionally). Records that cannot be decoded are printed with an {@code error} field and
 * their bytes; the command carries on.
 */
@Command(
        name = "dump",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Prints a topic's records as JSON lines (one object per record) on stdout.",
        footer = {
            "",
            "Stops at the end of the topic as it was when the command started (with --from-beginning,"
                    + " the default, and without --follow), after --max-records records, or when no record came for"
                    + " --timeout-seconds.",
            "",
            "Example:",
            "  ingest-app dump --topic hive.activity.hourly.v1 --max-records 10 --config apiary-devstack.properties"
        })
public final class DumpCommand implements Callable<Integer> {

    @Option(
            names = "--topic",
            required = true,
            paramLabel = "NAME",
            description = "One of the pipeline's topics (names as configured, e.g. hive.activity.hourly.v1).")
    String topic;

    @ArgGroup(exclusive = true)
    Start start = new Start();

    /** Where reading starts. */
    static final class Start {
        @Option(names = "--from-beginning", description = "Start at the oldest record kept (the default).")
        boolean fromBeginning;

        @Option(names = "--from-end", description = "Print only records that arrive from now on.")
        boolean fromEnd;
    }

    @Option(
            names = "--follow",
            description = "Do not stop at the end of the topic: keep waiting for new records (until --max-records, "
                    + "--timeout-seconds without a record, or Ctrl-C).")
    boolean follow;

    @Option(names = "--max-records", paramLabel = "N", description = "Stop after N records (default: no limit).")
    Long maxRecords;

    @Option(
            names = "--timeout-seconds",
            defaultValue = "10",
            paramLabel = "S",
            description = "Stop when no record came for S seconds (default: ${DEFAULT-VALUE}).")
    long timeoutSeconds;

    @Mixin
    ConfigOptions config;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (maxRecords != null && maxRecords < 1) {
            throw new ParameterException(spec.commandLine(), "--max-records must be at least 1, was " + maxRecords);
        }
        if (timeoutSeconds < 1) {
            throw new ParameterException(
                    spec.commandLine(), "--timeout-seconds must be at least 1, was " + timeoutSeconds);
        }
        IngestConfig cfg = config.load();
        Topics topics = cfg.topics();
        RecordJsonFormatter formatter = RecordJsonFormatter.forTopic(topics, topic)
                .orElseThrow(() -> new ParameterException(
                        spec.commandLine(),
                        "--topic " + topic + " is not one of the pipeline's topics: "
                                + String.join(", ", topics.all())));
        KafkaReachability.require(cfg.kafkaClientSettings(), Duration.ofSeconds(30));

        PrintWriter out = spec.commandLine().getOut();
        long printed = 0;
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(consumerSettings(cfg), new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(30));
            if (infos == null || infos.isEmpty()) {
                throw new IllegalArgumentException(
                        "Topic " + topic + " does not exist (create it with 'topics create')");
            }
            List<TopicPartition> partitions = infos.stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            if (start.fromEnd) {
                consumer.seekToEnd(partitions);
            } else {
                consumer.seekToBeginning(partitions);
            }
            Map<TopicPartition, Long> stopAt = start.fromEnd || follow ? null : consumer.endOffsets(partitions);
            long idleSince = System.nanoTime();
            while ((maxRecords == null || printed < maxRecords)
                    && (stopAt == null || !reached(consumer, stopAt))
                    && System.nanoTime() - idleSince
                            < Duration.ofSeconds(timeoutSeconds).toNanos()) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (maxRecords != null && printed >= maxRecords) {
                        break;
                    }
                    out.println(formatter.format(record));
                    printed++;
                    idleSince = System.nanoTime();
                }
            }
        }
        out.flush();
        spec.commandLine().getErr().printf("%d records printed from %s%n", printed, topic);
        return 0;
    }

    private static boolean reached(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> stopAt) {
        return stopAt.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
    }

    private static Map<String, Object> consumerSettings(IngestConfig cfg) {
        Map<String, Object> settings = new HashMap<>(cfg.kafkaClientSettings());
        settings.remove(ConsumerConfig.GROUP_ID_CONFIG);
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        settings.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        settings.putIfAbsent(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        settings.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "ingest-app-dump");
        return settings;
    }
}
