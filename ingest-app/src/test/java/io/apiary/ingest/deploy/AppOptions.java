package io.apiary.ingest.deploy;

import io.apiary.ingest.config.IngestConfig;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.kafka.common.config.ConfigDef;

/**
 * The application's options as the deploy/ tests see them: {@link IngestConfig#definition()}.
 */
final class AppOptions {

    /** Shown by {@link IngestConfig#describe()} for a setting whose value is a secret. */
    private static final String HIDDEN = "[hidden]";

    private AppOptions() {}

    /**
     * @param settings option name to value, as a container gets them
     * @return the names that are neither defined nor passed through, sorted
     * @throws org.apache.kafka.common.config.ConfigException when a defined option has an invalid value
     */
    static SortedSet<String> unknown(Map<String, String> settings) {
        return new IngestConfig(settings).unknownSettings();
    }

    /**
     * @param option an option name
     * @return its default as text, from the definition
     * @throws IllegalArgumentException when the option is not defined
     */
    static String defaultValue(String option) {
        ConfigDef.ConfigKey key = IngestConfig.definition().configKeys().get(option);
        if (key == null) {
            throw new IllegalArgumentException("No such option: " + option);
        }
        return String.valueOf(key.defaultValue);
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
        settings.keySet().stream()
                .filter(option -> HIDDEN.equals(described.get(option)))
                .forEach(secrets::add);
        return secrets;
    }
}
