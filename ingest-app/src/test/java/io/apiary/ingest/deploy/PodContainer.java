package io.apiary.ingest.deploy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One container of a rendered workload (StatefulSet, Deployment or Job), with the settings it runs
 * with: its {@code --config} file from the ConfigMap, then its {@code APIARY_*} variables, then its
 * {@code --set} options, in the application's order of precedence. Immutable.
 *
 * @param where       the workload and container, for messages, e.g. {@code StatefulSet apiary-ingest-topology, container ingest}
 * @param workload    the rendered workload
 * @param template    its pod template
 * @param container   the container
 * @param settings    option name to value; a value from a Secret is a placeholder naming the Secret and key
 * @param fromSecrets the options whose value comes from a Secret ({@code secretKeyRef})
 */
record PodContainer(
        String where,
        HasMetadata workload,
        PodTemplateSpec template,
        Container container,
        Map<String, String> settings,
        Set<String> fromSecrets) {

    /** @return the container's arguments, empty when none */
    List<String> args() {
        return container.getArgs() == null ? List.of() : container.getArgs();
    }

    /** @return whether it runs the pipeline ({@code run}), rather than a setup command */
    boolean runsPipeline() {
        return !args().isEmpty() && args().get(0).equals("run");
    }

    /** @return whether it runs the topology ({@code run --component=topology} or {@code all}) */
    boolean runsTopology() {
        String component = option(args(), "--component").orElse("all");
        return runsPipeline() && (component.equals("topology") || component.equals("all"));
    }

    /**
     * @param option an option name
     * @return its value in this container, else the application's default
     */
    String setting(String option) {
        return settings.getOrDefault(option, AppOptions.defaultValue(option));
    }

    /**
     * @param option an option name of type int or long
     * @return its value in this container, else the application's default
     * @throws AssertionError when the value is not a whole number
     */
    long longSetting(String option) {
        String value = setting(option);
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new AssertionError(where + ": " + option + " is not a whole number: '" + value + "'", e);
        }
    }

    /**
     * @param name an environment variable
     * @return its literal value; empty when the container has no such variable or takes it from elsewhere
     */
    Optional<String> literalEnv(String name) {
        return container.getEnv() == null
                ? Optional.empty()
                : container.getEnv().stream()
                        .filter(env -> env.getName().equals(name) && env.getValue() != null)
                        .map(EnvVar::getValue)
                        .findFirst();
    }

    /**
     * The value of a command-line option given as {@code --name=value} or {@code --name value};
     * the last one wins.
     *
     * @param args command-line arguments
     * @param name the option, with its dashes
     * @return its value, or empty
     */
    static Optional<String> option(List<String> args, String name) {
        List<String> values = optionValues(args, name);
        return values.isEmpty() ? Optional.empty() : Optional.of(values.get(values.size() - 1));
    }

    /**
     * Every value of a repeatable command-line option given as {@code --name=value} or {@code --name value}.
     *
     * @param args command-line arguments
     * @param name the option, with its dashes
     * @return its values in order, empty when none
     */
    static List<String> optionValues(List<String> args, String name) {
        List<String> values = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).startsWith(name + "=")) {
                values.add(args.get(i).substring(name.length() + 1));
            } else if (args.get(i).equals(name) && i + 1 < args.size()) {
                values.add(args.get(++i));
            }
        }
        return values;
    }
}
