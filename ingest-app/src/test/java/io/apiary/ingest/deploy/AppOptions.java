package io.apiary.ingest.deploy;

import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

import io.apiary.ingest.config.IngestConfig;
import org.apache.kafka.common.config.ConfigDef;

/**
 * The application's options as the deploy/ tests see them: {@link IngestConfig#DEFINITION}, plus
 * the options that deploy/ already sets while the application is gaining them.
 */
final class AppOptions {

    /**
     * Options deploy/ uses that the application is gaining in parallel work (issue 6: HTTP endpoints,
     * graceful shutdown, RocksDB stores, Cassandra authentication and TLS), with their announced defaults.
     *
     * <p>TODO(issue 6): delete this map once those options are in {@link IngestConfig#DEFINITION};
     * {@link #defaultValue} then reads every default from the definition, and {@link #unknown}
     * accepts only defined options.
     */
    static final Map<String, String> PENDING = Map.ofEntries(
            Map.entry("http.port", "8080"),
            Map.entry("shutdown.timeout.ms", "60000"),
            Map.entry("topology.store.type", "rocksdb"),
            Map.entry("topology.rocksdb.memory.bytes", "134217728"),
            Map.entry("cassandra.auth.username", ""),
            Map.entry("cassandra.auth.password", ""),
            Map.entry("cassandra.ssl.enabled", "false"),
            Map.entry("cassandra.ssl.truststore.path", ""),
            Map.entry("cassandra.ssl.truststore.password", ""),
            Map.entry("cassandra.ssl.keystore.path", ""),
            Map.entry("cassandra.ssl.keystore.password", ""),
            Map.entry("cassandra.ssl.hostname.validation", "true"));

    /** Shown by {@link IngestConfig#describe()} for a setting whose value is a secret. */
    private static final String HIDDEN = "[hidden]";

    private AppOptions() {
    }

    /**
     * @param settings option name to value, as a container gets them
     * @return the names that are neither defined, nor passed through, nor {@link #PENDING}, sorted
     * @throws org.apache.kafka.common.config.ConfigException when a defined option has an invalid value
     */
    static SortedSet<String> unknown(Map<String, String> settings) {
        SortedSet<String> unknown = new IngestConfig(settings).unknownSettings();
        unknown.removeAll(PENDING.keySet());
        return unknown;
    }

    /**
     * @param option an option name
     * @return its default as text: from the definition, else from {@link #PENDING}
     * @throws IllegalArgumentException when the option is neither
     */
    static String defaultValue(String option) {
        ConfigDef.ConfigKey key = IngestConfig.DEFINITION.configKeys().get(option);
        if (key != null) {
            return String.valueOf(key.defaultValue);
        }
        String pending = PENDING.get(option);
        if (pending == null) {
            throw new IllegalArgumentException("No such option: " + option);
        }
        return pending;
    }

    /**
     * The settings the application treats as secrets (masks in its logs), by the rule of
     * {@link IngestConfig#describe()}: passwords, JAAS configurations, tokens, keys and the like.
     *
     * @param settings option name to value, valid
     * @return the names of the secret ones among them
     */
    static Set<String> secrets(Map<String, String> settings) {
        Map<String, String> described = new IngestConfig(settings).describe();
        Set<String> secrets = new TreeSet<>();
        settings.keySet().stream().filter(option -> HIDDEN.equals(described.get(option))).forEach(secrets::add);
        return secrets;
    }
}
