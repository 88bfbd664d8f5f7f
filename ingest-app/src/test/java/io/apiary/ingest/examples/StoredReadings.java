package io.apiary.ingest.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.datastax.oss.driver.api.core.CqlSession;
import io.apiary.ingest.config.IngestConfig;
import java.time.Duration;

/** What the registry-client ITs check in Cassandra after their gateway's readings. Stateless. */
final class StoredReadings {

    private StoredReadings() {}

    /**
     * Waits up to 2 minutes until {@code hive_telemetry_v2} holds exactly {@code rows} rows, then
     * checks their sensor id is {@code brood}, as both gateways send.
     *
     * @param session a session to the test's node, not null
     * @param config  the test's configuration (its keyspace), not null
     * @param rows    the rows expected
     */
    static void awaitBroodReadings(CqlSession session, IngestConfig config, long rows) {
        String keyspace = config.getString(IngestConfig.CASSANDRA_KEYSPACE);
        await().atMost(Duration.ofMinutes(2))
                .pollInterval(Duration.ofSeconds(1))
                .untilAsserted(
                        () -> assertThat(session.execute("SELECT count(*) FROM " + keyspace + ".hive_telemetry_v2")
                                        .one()
                                        .getLong(0))
                                .isEqualTo(rows));
        assertThat(session.execute("SELECT sensor_id FROM " + keyspace + ".hive_telemetry_v2 LIMIT 1")
                        .one()
                        .getString(0))
                .isEqualTo("brood");
    }
}
