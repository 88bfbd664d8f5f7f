package io.apiary.ingest.logging;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * How the process logs: the application's level ({@value #LEVEL_VARIABLE}) and the line format
 * ({@value #FORMAT_VARIABLE}), both environment variables, never settings of a file or
 * {@code --set}: log4j reads its configuration when the first logger is made, before any settings
 * file is read, and one stream must not change format midway. {@link #systemProperties} turns them
 * into the system properties that the application's {@code log4j2.xml} reads ({@value
 * #LEVEL_PROPERTY}, {@value #FORMAT_PROPERTY}), to be set before the first logger exists.
 * Thread-safe (stateless).
 */
public final class LogEnvironment {

    /** Environment variable of the application's log level (log4j's names: INFO, DEBUG, ...). */
    public static final String LEVEL_VARIABLE = "APIARY_LOG_LEVEL";

    /** Environment variable of the log format: {@code plain} (the default) or {@code json}. */
    public static final String FORMAT_VARIABLE = "APIARY_LOG_FORMAT";

    /** System property that {@code log4j2.xml} reads for the level of the {@code io.apiary} loggers. */
    public static final String LEVEL_PROPERTY = "apiary.log.level";

    /** System property that {@code log4j2.xml} reads for the layout: {@code json} or anything else for plain. */
    public static final String FORMAT_PROPERTY = "apiary.log.format";

    /** The variables with the settings' prefix {@code APIARY_} that are not settings. */
    public static final Set<String> VARIABLES = Set.of(LEVEL_VARIABLE, FORMAT_VARIABLE);

    private LogEnvironment() {}

    /** The log line formats. */
    public enum Format {
        /** One line per event: ISO-8601 date and time with milliseconds and offset, level, thread, logger, message. */
        PLAIN,
        /** One JSON object per line in the Elastic Common Schema (log4j's JsonTemplateLayout, {@code EcsLayout.json}). */
        JSON;

        /** @return the name {@value #FORMAT_VARIABLE} takes: {@code plain} or {@code json} */
        public String setting() {
            return name().toLowerCase(Locale.ROOT);
        }

        /**
         * @param value the variable's value; null or blank for the default
         * @return the format, {@link #PLAIN} for null or blank
         * @throws IllegalArgumentException naming the variable and the values it takes for any other value
         */
        public static Format parse(String value) {
            if (value == null || value.isBlank()) {
                return PLAIN;
            }
            for (Format format : values()) {
                if (format.setting().equalsIgnoreCase(value.trim())) {
                    return format;
                }
            }
            throw new IllegalArgumentException(
                    FORMAT_VARIABLE + " must be plain or json, was '" + value + "'; unset, it is plain");
        }
    }

    /**
     * The system properties of the logging configuration, from the environment.
     *
     * @param env          the environment variables (usually {@code System.getenv()}); not null
     * @param defaultLevel the level when {@value #LEVEL_VARIABLE} is unset or blank; not null
     * @return {@value #LEVEL_PROPERTY} and {@value #FORMAT_PROPERTY} with their values
     * @throws IllegalArgumentException if {@value #FORMAT_VARIABLE} is neither {@code plain} nor {@code json}
     */
    public static Map<String, String> systemProperties(Map<String, String> env, String defaultLevel) {
        String level = env.get(LEVEL_VARIABLE);
        return Map.of(
                LEVEL_PROPERTY,
                level == null || level.isBlank() ? defaultLevel : level.trim(),
                FORMAT_PROPERTY,
                Format.parse(env.get(FORMAT_VARIABLE)).setting());
    }
}
