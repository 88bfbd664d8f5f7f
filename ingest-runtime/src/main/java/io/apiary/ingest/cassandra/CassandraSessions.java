package io.apiary.ingest.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.ssl.ProgrammaticSslEngineFactory;
import io.apiary.ingest.config.IngestConfig;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.config.ConfigException;

/**
 * Opens Cassandra sessions from the application's configuration. Everything the driver can
 * configure itself (authentication, TLS, timeouts, pooling, throttling, retry, metrics) comes from
 * the driver's own {@code application.conf}: the file named by
 * {@value IngestConfig#CASSANDRA_DRIVER_CONFIG_FILE} if set, else an {@code application.conf} on the
 * classpath, over the driver's {@code reference.conf}. Contact points, local datacenter, and the
 * common authentication and TLS settings ({@code cassandra.auth.*}, {@code cassandra.ssl.*}) come
 * from the application's options and win over that file. Thread-safe (stateless).
 */
public final class CassandraSessions {

    private CassandraSessions() {}

    /**
     * Opens a session (no keyspace set; statements name their keyspace).
     *
     * @param config the configuration, not null
     * @return an open session; the caller closes it
     * @throws ConfigException if a contact point is malformed or the driver file is missing
     * @throws com.datastax.oss.driver.api.core.AllNodesFailedException if no contact point answers
     */
    public static CqlSession open(IngestConfig config) {
        return open(config, null);
    }

    /**
     * Opens a session whose driver metrics go to a Micrometer registry, when the driver
     * configuration selects {@code MicrometerMetricsFactory} (the project's
     * {@code application.conf} does; a replacement file may not).
     *
     * @param config   the configuration, not null
     * @param registry where the driver's metrics go; null for none
     * @return an open session; the caller closes it
     * @throws ConfigException if a contact point is malformed, the driver file is missing, or a
     *                         trust or key store cannot be read
     * @throws com.datastax.oss.driver.api.core.AllNodesFailedException if no contact point answers
     *         (also when authentication or the TLS handshake fails)
     */
    public static CqlSession open(IngestConfig config, io.micrometer.core.instrument.MeterRegistry registry) {
        DriverConfigLoader loader = configLoader(config.getString(IngestConfig.CASSANDRA_DRIVER_CONFIG_FILE));
        CqlSessionBuilder builder = CqlSession.builder()
                .withConfigLoader(loader)
                .addContactPoints(contactPoints(config.getList(IngestConfig.CASSANDRA_CONTACT_POINTS)))
                .withLocalDatacenter(config.getString(IngestConfig.CASSANDRA_LOCAL_DATACENTER))
                .withApplicationName("apiary-ingest");
        String username = config.getString(CassandraSecurityOptions.CASSANDRA_AUTH_USERNAME);
        if (!username.isBlank()) {
            builder = builder.withAuthCredentials(
                    username,
                    config.getPassword(CassandraSecurityOptions.CASSANDRA_AUTH_PASSWORD)
                            .value());
        }
        if (config.getBoolean(CassandraSecurityOptions.CASSANDRA_SSL_ENABLED)) {
            builder = builder.withSslEngineFactory(new ProgrammaticSslEngineFactory(
                    CassandraTls.context(config),
                    null,
                    config.getBoolean(CassandraSecurityOptions.CASSANDRA_SSL_HOSTNAME_VALIDATION)));
        }
        String factory =
                loader.getInitialConfig().getDefaultProfile().getString(DefaultDriverOption.METRICS_FACTORY_CLASS, "");
        if (registry != null && factory.contains("Micrometer")) {
            builder = builder.withMetricRegistry(registry);
        }
        return builder.build();
    }

    private static DriverConfigLoader configLoader(String file) {
        if (file == null || file.isBlank()) {
            return DriverConfigLoader.fromDefaults(CassandraSessions.class.getClassLoader());
        }
        Path path = Path.of(file);
        if (!Files.isReadable(path)) {
            throw new ConfigException(
                    IngestConfig.CASSANDRA_DRIVER_CONFIG_FILE,
                    file,
                    "the Cassandra driver configuration file does not exist or cannot be read");
        }
        return DriverConfigLoader.fromPath(path);
    }

    /**
     * Parses host:port contact points.
     *
     * @param hostPorts entries like {@code 10.0.0.1:9042} or {@code cassandra-0.cassandra:9042}
     * @return unresolved socket addresses (resolved by the driver)
     * @throws ConfigException naming the entry if one is malformed
     */
    public static List<InetSocketAddress> contactPoints(List<String> hostPorts) {
        List<InetSocketAddress> points = new ArrayList<>();
        for (String entry : hostPorts) {
            String hostPort = entry.trim();
            int colon = hostPort.lastIndexOf(':');
            try {
                if (colon <= 0) {
                    throw new NumberFormatException("no port");
                }
                int port = Integer.parseInt(hostPort.substring(colon + 1));
                points.add(InetSocketAddress.createUnresolved(hostPort.substring(0, colon), port));
            } catch (IllegalArgumentException e) {
                throw new ConfigException(
                        IngestConfig.CASSANDRA_CONTACT_POINTS, entry, "expected host:port, e.g. 127.0.0.1:9042");
            }
        }
        return points;
    }
}
