package io.apiary.ingest.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.ConfigKey;

/**
 * The configuration reference and the sample settings file, generated from
 * {@link IngestConfig#definition()} so that they cannot drift from the code (as Kafka generates its
 * own configuration docs from its {@code ConfigDef}s). The committed copies,
 * {@code deploy/configuration.md} and {@code deploy/apiary.sample.properties}, are checked
 * against these by a test. Thread-safe (stateless).
 */
public final class ConfigReference {

    /** Sections of the reference: option name prefix to heading, in this order. */
    private static final Map<String, String> SECTIONS = sections();

    private static final int WRAP = 100;

    private ConfigReference() {}

    private static Map<String, String> sections() {
        Map<String, String> sections = new LinkedHashMap<>();
        sections.put("kafka.", "Kafka");
        sections.put("topology.", "Topology (Kafka Streams)");
        sections.put("telemetry.", "Buckets and shards");
        sections.put("weather.", "Buckets and shards");
        sections.put("activity.", "Hourly activity");
        sections.put("validation.", "Validation");
        sections.put("sink.", "Cassandra sink");
        sections.put("cassandra.", "Cassandra connection");
        sections.put("topic.", "Topics");
        sections.put("wire.format.", "Wire format and schema registry");
        sections.put("schema.registry.", "Wire format and schema registry");
        sections.put("instance.", "Group membership (rolling restarts)");
        sections.put("http.", "HTTP endpoints, health and shutdown");
        sections.put("health.", "HTTP endpoints, health and shutdown");
        sections.put("shutdown.", "HTTP endpoints, health and shutdown");
        sections.put("partitions.", "Partition plan (partitions plan command)");
        sections.put("read.", "Read path (query and report commands)");
        return sections;
    }

    /** @return every option grouped by section heading, sections in reading order, options sorted by name */
    static Map<String, List<ConfigKey>> bySection() {
        Map<String, List<ConfigKey>> grouped = new LinkedHashMap<>();
        SECTIONS.values().forEach(heading -> grouped.putIfAbsent(heading, new ArrayList<>()));
        IngestConfig.definition().configKeys().values().stream()
                .sorted(java.util.Comparator.comparing(key -> key.name))
                .forEach(key -> grouped.get(SECTIONS.entrySet().stream()
                                .filter(section -> key.name.startsWith(section.getKey()))
                                .findFirst()
                                .orElseThrow(() -> new IllegalStateException("No reference section for " + key.name))
                                .getValue())
                        .add(key));
        return grouped;
    }

    /** @return the reference as Markdown: every option with its meaning, type, default, valid values and environment variable */
    public static String markdown() {
        StringBuilder out = new StringBuilder();
        out.append("# Configuration reference\n\n")
                .append(
                        "Generated from the code (`IngestConfig.definition()`) by `ingest-app config reference`; do not edit.\n")
                .append(
                        "Settings come from, in increasing precedence: the defaults below, a properties file (`--config`),\n")
                .append(
                        "environment variables (`APIARY_` plus the option in upper case with dots as underscores), and\n")
                .append(
                        "`--set KEY=VALUE`. `ingest-app config show` prints the effective settings, secrets masked.\n\n")
                .append("Pass-through prefixes (not listed below): `kafka.*` goes to every Kafka client (e.g.\n")
                .append("`kafka.security.protocol`, `kafka.sasl.mechanism`, `kafka.sasl.jaas.config`,\n")
                .append("`kafka.ssl.truststore.location`), `streams.*` to Kafka Streams only (e.g.\n")
                .append("`streams.num.standby.replicas`), `sink.consumer.*` to the sink's Kafka consumer only.\n");
        bySection().forEach((heading, keys) -> {
            out.append("\n## ").append(heading).append("\n\n");
            out.append("| option | default | valid values | meaning |\n|---|---|---|---|\n");
            for (ConfigKey key : keys) {
                out.append("| `")
                        .append(key.name)
                        .append("`<br>`")
                        .append(environmentVariable(key.name))
                        .append("` | ")
                        .append(cell(defaultText(key)))
                        .append(" | ")
                        .append(cell(validText(key)))
                        .append(" | ")
                        .append(cell(key.documentation))
                        .append(" |\n");
            }
        });
        return out.toString();
    }

    /** @return a properties file with every option commented out at its default, each with its documentation */
    public static String sampleProperties() {
        StringBuilder out = new StringBuilder();
        out.append("# Apiary Ingest: every setting, commented out at its default. Generated from the code by\n")
                .append("# 'ingest-app config sample'; the reference is deploy/configuration.md.\n")
                .append(
                        "# Uncomment and change what you need; any setting may also come from an environment variable\n")
                .append(
                        "# (APIARY_ plus the name in upper case with dots as underscores), which wins over this file.\n")
                .append(
                        "# Secrets (passwords, kafka.sasl.jaas.config) belong in environment variables set from a Secret.\n")
                .append(
                        "#\n# Pass-through: kafka.* goes to every Kafka client, streams.* to Kafka Streams, sink.consumer.*\n")
                .append("# to the sink's consumer. For example:\n")
                .append("#kafka.security.protocol=SASL_SSL\n#kafka.sasl.mechanism=SCRAM-SHA-512\n")
                .append("#kafka.ssl.truststore.location=/etc/apiary/tls/kafka-truststore.p12\n")
                .append("#streams.num.standby.replicas=1\n");
        bySection().forEach((heading, keys) -> {
            out.append("\n############ ").append(heading).append("\n");
            for (ConfigKey key : keys) {
                out.append('\n');
                for (String line : wrap(key.documentation, WRAP - 2)) {
                    out.append("# ").append(line).append('\n');
                }
                out.append("# Type ").append(key.type.name().toLowerCase(Locale.ROOT));
                String valid = validText(key);
                if (!valid.isEmpty()) {
                    out.append("; valid: ").append(valid);
                }
                out.append("; environment ").append(environmentVariable(key.name));
                out.append(".\n#")
                        .append(key.name)
                        .append('=')
                        .append(propertiesValue(key))
                        .append('\n');
            }
        });
        return out.toString();
    }

    /**
     * @param option an option name
     * @return the environment variable that sets it, e.g. {@code APIARY_SINK_LINGER_MS}
     */
    public static String environmentVariable(String option) {
        return ConfigLoader.ENV_PREFIX + option.toUpperCase(Locale.ROOT).replace('.', '_');
    }

    private static String defaultText(ConfigKey key) {
        if (!key.hasDefault()) {
            return "(required)";
        }
        String text = propertiesValue(key);
        return text.isEmpty() ? "\"\"" : "`" + text + "`";
    }

    private static String propertiesValue(ConfigKey key) {
        Object value = key.defaultValue;
        if (value == null) {
            return "";
        }
        if (key.type == ConfigDef.Type.PASSWORD) {
            return "";
        }
        if (value instanceof List<?> list) {
            return String.join(",", list.stream().map(String::valueOf).toList());
        }
        return String.valueOf(value);
    }

    private static String validText(ConfigKey key) {
        return key.validator == null ? "" : key.validator.toString();
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }

    private static List<String> wrap(String text, int width) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.split("\\s+")) {
            if (line.length() > 0 && line.length() + 1 + word.length() > width) {
                lines.add(line.toString());
                line.setLength(0);
            }
            if (line.length() > 0) {
                line.append(' ');
            }
            line.append(word);
        }
        if (line.length() > 0) {
            lines.add(line.toString());
        }
        return lines;
    }
}
