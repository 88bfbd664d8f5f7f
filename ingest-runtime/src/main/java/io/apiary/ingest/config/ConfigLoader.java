package io.apiary.ingest.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.common.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds an {@link IngestConfig} from, in increasing precedence: the defaults, an optional
 * properties file, environment variables, then explicit overrides (e.g. command-line options).
 *
 * <p>Environment variables: {@code APIARY_} followed by the option name in upper case with dots
 * as underscores; e.g. {@code APIARY_KAFKA_BOOTSTRAP_SERVERS} sets {@code kafka.bootstrap.servers}
 * and {@code APIARY_KAFKA_SASL_JAAS_CONFIG} sets {@code kafka.sasl.jaas.config}; {@code APIARY_LOG_LEVEL},
 * {@code APIARY_LOG_FORMAT} ({@link io.apiary.ingest.logging.LogEnvironment}) and {@code APIARY_DEVSTACK_*}
 * are not settings. Settings that are neither defined nor passed
 * through are logged as a warning (a misspelt option must not pass unnoticed); settings that were
 * renamed ({@link #RENAMED}) apply under their new name, with a warning. Thread-safe (stateless).
 */
public final class ConfigLoader {

    /** Prefix of the environment variables read as settings. */
    public static final String ENV_PREFIX = "APIARY_";
    /** Variables with the prefix that are not settings: the log level and format (the dev stack's own by prefix). */
    static final Set<String> NOT_SETTINGS = io.apiary.ingest.logging.LogEnvironment.VARIABLES;

    private static final Logger LOG = LoggerFactory.getLogger(ConfigLoader.class);

    private ConfigLoader() {}

    /**
     * Loads the configuration.
     *
     * @param file      properties file, or null for none
     * @param env       environment variables (usually {@code System.getenv()}), not null
     * @param overrides settings that win over file and environment, not null
     * @return the validated configuration
     * @throws ConfigException if the file cannot be read or a value is invalid, naming the file
     *                         or option
     */
    public static IngestConfig load(Path file, Map<String, String> env, Map<String, ?> overrides) {
        Map<String, Object> settings = new HashMap<>();
        if (file != null) {
            Properties props = new Properties();
            try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                props.load(reader);
            } catch (IOException e) {
                String why = e instanceof java.nio.file.NoSuchFileException
                        ? "no such file"
                        : e instanceof java.nio.charset.CharacterCodingException
                                ? "it is not UTF-8 text"
                                : e instanceof java.nio.file.AccessDeniedException ? "permission denied" : e.toString();
                throw new ConfigException("Cannot read the configuration file " + file.toAbsolutePath() + ": " + why);
            }
            props.forEach(
                    (k, v) -> settings.put(k.toString().trim(), v.toString().trim()));
        }
        settings.putAll(fromEnvironment(env));
        settings.putAll(overrides);
        applyRenamed(settings);
        IngestConfig config = new IngestConfig(settings);
        for (String unknown : config.unknownSettings()) {
            LOG.warn(
                    "Unknown setting '{}' is ignored (from the configuration file, an APIARY_* environment "
                            + "variable or --set); the settings are listed in deploy/configuration.md",
                    unknown);
        }
        return config;
    }

    /**
     * Settings whose name changed, old name to new: the per-table sink options of the tables whose
     * key changed ({@code hive_telemetry} became {@code hive_telemetry_v2}, {@code agent_alerts}
     * became {@code agent_alerts_v2}; see docs/platform.md, "Changing a table's key"). A deployed
     * configuration keeps working across the upgrade: the value moves to the new name, with a warning.
     */
    static final Map<String, String> RENAMED = renamed();

    private static Map<String, String> renamed() {
        Map<String, String> renamed = new java.util.TreeMap<>();
        Map<String, String> tables = Map.of(
                io.apiary.ingest.tables.TableNames.LEGACY_HIVE_TELEMETRY,
                        io.apiary.ingest.tables.TableNames.HIVE_TELEMETRY,
                io.apiary.ingest.tables.TableNames.LEGACY_AGENT_ALERTS,
                        io.apiary.ingest.tables.TableNames.AGENT_ALERTS);
        tables.forEach((legacy, current) -> {
            renamed.put(IngestConfig.sinkTableConsistency(legacy), IngestConfig.sinkTableConsistency(current));
            renamed.put(IngestConfig.sinkTableTtl(legacy), IngestConfig.sinkTableTtl(current));
        });
        return java.util.Collections.unmodifiableMap(renamed);
    }

    /**
     * Moves each setting of {@link #RENAMED} to its new name, in place, logging a warning for
     * each: the value applies under the new name, unless the new name is set too, in which case the
     * old one is dropped (and the warning says so).
     *
     * @param settings the merged settings, mutable, not null
     */
    static void applyRenamed(Map<String, Object> settings) {
        RENAMED.forEach((old, current) -> {
            if (!settings.containsKey(old)) {
                return;
            }
            Object value = settings.remove(old);
            if (settings.containsKey(current)) {
                LOG.warn(
                        "Setting '{}' is ignored: it was renamed '{}' when the table's key changed, and '{}' is"
                                + " set too; remove the old name",
                        old,
                        current,
                        current);
            } else {
                settings.put(current, value);
                LOG.warn(
                        "Setting '{}' was renamed '{}' when the table's key changed; its value applies to '{}'."
                                + " Rename it in the configuration",
                        old,
                        current,
                        current);
            }
        });
    }

    /**
     * The settings named by {@code APIARY_*} environment variables: {@code APIARY_} plus the
     * option in upper case with dots as underscores. A variable that matches a defined option
     * this way names that option, even when the option itself contains underscores
     * ({@code APIARY_SINK_TABLE_HIVE_TELEMETRY_V2_TTL_SECONDS} is {@code sink.table.hive_telemetry_v2.ttl.seconds});
     * any other variable becomes lower case with underscores as dots (pass-through settings such
     * as {@code APIARY_KAFKA_SECURITY_PROTOCOL}).
     *
     * @param env environment variables, not null
     * @return option name to value
     */
    public static Map<String, String> fromEnvironment(Map<String, String> env) {
        Map<String, String> defined = new HashMap<>();
        for (String option : IngestConfig.definition().names()) {
            defined.put(ENV_PREFIX + option.toUpperCase(Locale.ROOT).replace('.', '_'), option);
        }
        for (String option : RENAMED.keySet()) {
            defined.put(ENV_PREFIX + option.toUpperCase(Locale.ROOT).replace('.', '_'), option);
        }
        Map<String, String> settings = new HashMap<>();
        env.forEach((name, value) -> {
            boolean notASetting = NOT_SETTINGS.contains(name) || name.startsWith(ENV_PREFIX + "DEVSTACK_");
            if (name.startsWith(ENV_PREFIX) && name.length() > ENV_PREFIX.length() && !notASetting) {
                String key = defined.getOrDefault(
                        name,
                        name.substring(ENV_PREFIX.length())
                                .toLowerCase(Locale.ROOT)
                                .replace('_', '.'));
                settings.put(key, value);
            }
        });
        return settings;
    }
}
