package io.apiary.ingest.config;

import org.apache.kafka.common.config.ConfigDef;

/**
 * A feature's options, defined by the feature's own package and added to the application's one
 * {@link IngestConfig#definition() definition}: the configuration layer knows no feature, and
 * each feature owns its option names, defaults, validators and docs beside its typed settings.
 *
 * <p>Implementations are listed in {@code META-INF/services/io.apiary.ingest.config.OptionGroup}
 * and loaded once, with {@link java.util.ServiceLoader}, when {@link IngestConfig} is first used;
 * they need a public no-argument constructor. An option name must be defined by one group only
 * (a second definition fails the class initialisation with Kafka's {@link
 * org.apache.kafka.common.config.ConfigException}).
 */
public interface OptionGroup {

    /**
     * Adds this group's options.
     *
     * @param definition the application's definition while it is built, not null; called once, from
     *                   one thread
     */
    void define(ConfigDef definition);

    /**
     * Checks what no single option's validator can: a rule between this group's options and others (for
     * example that a window is at least twice another setting's wait). Called by every {@link IngestConfig}
     * once its values are validated, so an unsafe combination is refused at load (and by {@code config
     * show}) like an unsafe value. Does nothing by default.
     *
     * @param config the validated configuration, not null
     * @throws org.apache.kafka.common.config.ConfigException naming the settings, their values and the rule
     */
    default void check(IngestConfig config) {}
}
