package io.apiary.ingest.importer;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.KafkaException;

/**
 * Checks that Kafka answers before a command starts producing, so that a wrong address or a
 * missing broker gives one clear error instead of a producer that waits on every record.
 * Thread-safe (stateless).
 */
public final class KafkaReachability {

    private KafkaReachability() {}

    /**
     * @param clientSettings Kafka client settings (bootstrap servers, security)
     * @param timeout        how long to wait for an answer
     * @throws KafkaException naming the bootstrap servers if the cluster does not answer in time
     */
    public static void require(Map<String, Object> clientSettings, Duration timeout) {
        Map<String, Object> settings = new HashMap<>(clientSettings);
        settings.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        settings.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        try (Admin admin = Admin.create(settings)) {
            admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) timeout.toMillis()))
                    .clusterId()
                    .get(timeout.toMillis() + 1_000, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new KafkaException(
                    "Kafka at " + clientSettings.get("bootstrap.servers") + " did not answer within "
                            + timeout.toSeconds() + " s (is kafka.bootstrap.servers right, and the broker up?): "
                            + (e.getCause() == null ? e : e.getCause().getMessage()),
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KafkaException("Interrupted while checking Kafka", e);
        }
    }
}
