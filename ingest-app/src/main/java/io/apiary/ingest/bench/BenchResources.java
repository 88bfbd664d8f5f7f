package io.apiary.ingest.bench;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.apiary.ingest.config.IngestConfig;
import io.apiary.ingest.pipeline.TopicProvisioner;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.RemoveMembersFromConsumerGroupOptions;

/**
 * What the benchmark's runs write to, kept apart from the runs themselves: the table every write
 * run fills (emptied, counted, its options altered) and each run's Kafka topics and consumer groups
 * (created, deleted afterwards). A deletion that fails is printed, not thrown: a run's figures
 * stand without it. Not thread-safe: the benchmark's thread only.
 */
final class BenchResources {

    private final String keyspace;
    private final String table;
    private final PrintWriter out;

    /**
     * @param keyspace the benchmark's keyspace, not null
     * @param table    the table in it that the write runs fill, not null
     * @param out      where a failed deletion and the altered options are printed, not null
     */
    BenchResources(String keyspace, String table, PrintWriter out) {
        this.keyspace = Objects.requireNonNull(keyspace);
        this.table = Objects.requireNonNull(table);
        this.out = Objects.requireNonNull(out);
    }

    /**
     * Counts the table's rows by paging through their partition keys (5,000 rows a page): a
     * server-side {@code COUNT(*)} over millions of rows is one range read that can outlast the
     * node's timeouts (it failed so, with a ReadFailureException, at 2,000,000 rows).
     */
    long count(CqlSession session) {
        long rows = 0;
        for (var ignored : session.execute(SimpleStatement.newInstance("SELECT hive_id FROM " + keyspace + "." + table)
                .setPageSize(5_000)
                .setTimeout(Duration.ofMinutes(1)))) {
            rows++;
        }
        return rows;
    }

    /**
     * Applies {@code tableOptions} to the benchmark's table and prints the options the node then
     * reports for it, so that a run's output says what was measured.
     *
     * @throws com.datastax.oss.driver.api.core.servererrors.InvalidQueryException if the node
     *         refuses the options (an unknown memtable configuration, a bad compaction map)
     */
    void alterTable(CqlSession session, String tableOptions) {
        session.execute(SimpleStatement.newInstance("ALTER table " + keyspace + "." + table + " WITH " + tableOptions)
                .setTimeout(Duration.ofMinutes(1)));
        var row = session.execute(SimpleStatement.newInstance(
                        "SELECT memtable, compaction FROM system_schema.tables "
                                + "WHERE keyspace_name = ? AND table_name = ?",
                        keyspace,
                        table))
                .one();
        out.printf(
                "Table options of %s.%s: WITH %s (memtable %s, compaction %s)%n",
                keyspace,
                table,
                tableOptions,
                row == null ? "?" : row.getString("memtable"),
                row == null ? "?" : row.getMap("compaction", String.class, String.class));
        out.flush();
    }

    void truncate(CqlSession session) {
        session.execute(SimpleStatement.newInstance("TRUNCATE " + keyspace + "." + table)
                .setTimeout(Duration.ofMinutes(2)));
    }

    static void createTopics(Admin admin, IngestConfig config) {
        TopicProvisioner.createMissing(admin, config);
        TopicProvisioner.awaitLeaders(admin, config.topics().all(), Duration.ofMinutes(1));
    }

    /**
     * Deletes a run's topics and the sink's consumer group, and with {@code streams} the topology's
     * group and Kafka Streams' internal topics too, with every topic and group named under the
     * topology's application id ({@code <application id>-*}).
     */
    void deleteTopicsAndGroups(Admin admin, IngestConfig config, boolean streams) {
        deleteTopicsAndGroups(admin, config, streams, out);
    }

    /**
     * As {@link #deleteTopicsAndGroups(Admin, IngestConfig, boolean)}, for a run with no table.
     *
     * @param out where a failed deletion is printed
     */
    static void deleteTopicsAndGroups(Admin admin, IngestConfig config, boolean streams, PrintWriter out) {
        String applicationId = config.getString(IngestConfig.TOPOLOGY_APPLICATION_ID);
        try {
            List<String> names = new ArrayList<>(config.topics().all());
            List<String> groups = new ArrayList<>(List.of(config.getString(IngestConfig.SINK_GROUP_ID)));
            if (streams) {
                admin.listTopics().names().get().stream()
                        .filter(n -> n.startsWith(applicationId + "-"))
                        .forEach(names::add);
                groups.add(applicationId);
            }
            admin.deleteTopics(names).all().get(1, TimeUnit.MINUTES);
            Set<String> existing = new java.util.HashSet<>();
            admin.listConsumerGroups().all().get(1, TimeUnit.MINUTES).forEach(g -> existing.add(g.groupId()));
            groups.retainAll(existing);
            if (streams) { // e.g. the gateway warm-up's pass-through application, named under the topology's
                existing.stream()
                        .filter(g -> g.startsWith(applicationId + "-") && !groups.contains(g))
                        .forEach(groups::add);
            }
            for (String group : groups) {
                // a closed Kafka Streams client stays a member until its session times out: remove it
                RemoveMembersFromConsumerGroupOptions everyone = new RemoveMembersFromConsumerGroupOptions();
                everyone.reason("apiary bench run finished");
                try {
                    admin.removeMembersFromConsumerGroup(group, everyone).all().get(1, TimeUnit.MINUTES);
                } catch (java.util.concurrent.ExecutionException e) {
                    // no members left
                }
            }
            if (!groups.isEmpty()) {
                admin.deleteConsumerGroups(groups).all().get(1, TimeUnit.MINUTES);
            }
        } catch (Exception e) {
            out.printf("  (could not delete the run's topics or consumer groups: %s)%n", e.getMessage());
        }
    }

    void deleteGroup(Admin admin, String group) {
        try {
            admin.deleteConsumerGroups(List.of(group)).all().get(1, TimeUnit.MINUTES);
        } catch (Exception e) {
            out.printf("  (could not delete the consumer group %s: %s)%n", group, e.getMessage());
        }
    }
}
