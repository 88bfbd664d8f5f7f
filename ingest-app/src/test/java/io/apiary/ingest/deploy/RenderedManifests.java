package io.apiary.ingest.deploy;

import io.apiary.ingest.config.ConfigLoader;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapVolumeSource;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * The objects {@code kubectl kustomize} renders for one kustomization, parsed strictly
 * ({@link StrictYaml}), with each container's settings resolved from the ConfigMap it mounts and
 * its environment. Immutable; the cache of rendered folders is thread-safe.
 */
final class RenderedManifests {

    private static final Map<Path, RenderedManifests> RENDERED = new ConcurrentHashMap<>();

    private final String source;
    private final List<HasMetadata> objects;

    private RenderedManifests(String source, List<HasMetadata> objects) {
        this.source = source;
        this.objects = List.copyOf(objects);
    }

    /**
     * Renders a kustomization, once per folder and test run.
     *
     * @param dir a folder with a kustomization.yaml
     * @return its rendered objects
     * @throws AssertionError when kubectl fails or the output does not parse strictly
     */
    static RenderedManifests render(Path dir) {
        return RENDERED.computeIfAbsent(dir.toAbsolutePath().normalize(), folder -> {
            String source = "kubectl kustomize " + folder;
            return new RenderedManifests(source, StrictYaml.kubernetesObjects(Kustomize.build(folder), source));
        });
    }

    /** @return every rendered object, in kustomize's order */
    List<HasMetadata> objects() {
        return objects;
    }

    /**
     * @param type a model class
     * @return the rendered objects of that class
     */
    <T extends HasMetadata> List<T> all(Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    /**
     * @param type a model class
     * @param name an object name
     * @return the object of that class and name, if rendered
     */
    <T extends HasMetadata> Optional<T> find(Class<T> type, String name) {
        return all(type).stream()
                .filter(object -> object.getMetadata().getName().equals(name))
                .findFirst();
    }

    /** @return every container of every StatefulSet, Deployment and Job, with its settings */
    List<PodContainer> containers() {
        List<PodContainer> containers = new ArrayList<>();
        for (HasMetadata object : objects) {
            PodTemplateSpec template = object instanceof StatefulSet set
                    ? set.getSpec().getTemplate()
                    : object instanceof Deployment deployment
                            ? deployment.getSpec().getTemplate()
                            : object instanceof Job job ? job.getSpec().getTemplate() : null;
            if (template != null) {
                for (Container container : template.getSpec().getContainers()) {
                    containers.add(container(object, template, container));
                }
            }
        }
        return containers;
    }

    private PodContainer container(HasMetadata workload, PodTemplateSpec template, Container container) {
        String where = source + ": " + workload.getKind() + " "
                + workload.getMetadata().getName() + ", container " + container.getName();
        if (container.getEnvFrom() != null && !container.getEnvFrom().isEmpty()) {
            throw new AssertionError(
                    where + ": envFrom is not resolved by these checks; list the variables one by one");
        }
        List<String> args = container.getArgs() == null ? List.of() : container.getArgs();
        Map<String, String> settings = new TreeMap<>();
        PodContainer.option(args, "--config")
                .or(() -> PodContainer.option(args, "-c"))
                .ifPresent(path -> settings.putAll(configFile(template, container, path, where)));
        Map<String, String> env = new HashMap<>();
        Set<String> secretVariables = new TreeSet<>();
        for (EnvVar variable : container.getEnv() == null ? List.<EnvVar>of() : container.getEnv()) {
            SecretKeySelector secret = variable.getValueFrom() == null
                    ? null
                    : variable.getValueFrom().getSecretKeyRef();
            if (secret != null) {
                secretVariables.add(variable.getName());
            }
            String value;
            if (secret != null) {
                value = "<from Secret " + secret.getName() + ", key " + secret.getKey() + ">";
            } else if (variable.getValueFrom() != null) {
                value = podName(workload, variable).orElse("<from valueFrom>");
            } else {
                value = variable.getValue() == null ? "" : variable.getValue();
            }
            env.put(variable.getName(), value);
        }
        settings.putAll(ConfigLoader.fromEnvironment(env));
        for (String set : PodContainer.optionValues(args, "--set")) {
            int equals = set.indexOf('=');
            if (equals > 0) {
                settings.put(
                        set.substring(0, equals).trim(),
                        set.substring(equals + 1).trim());
            }
        }
        Set<String> fromSecrets = new TreeSet<>(ConfigLoader.fromEnvironment(
                        secretVariables.stream().collect(Collectors.toMap(name -> name, name -> "")))
                .keySet());
        return new PodContainer(where, workload, template, container, settings, fromSecrets);
    }

    /**
     * @return for a variable from the pod's name (downward API, {@code metadata.name}), the name of the
     *     workload's first pod as a StatefulSet names it ({@code <name>-0}); empty for any other variable
     */
    private static java.util.Optional<String> podName(HasMetadata workload, EnvVar variable) {
        return java.util.Optional.ofNullable(variable.getValueFrom())
                .map(from -> from.getFieldRef())
                .filter(ref -> "metadata.name".equals(ref.getFieldPath()))
                .map(ref -> workload.getMetadata().getName() + "-0");
    }

    /** The settings file at {@code path} in the container: a key of the ConfigMap mounted there. */
    private Map<String, String> configFile(PodTemplateSpec template, Container container, String path, String where) {
        for (VolumeMount mount :
                container.getVolumeMounts() == null ? List.<VolumeMount>of() : container.getVolumeMounts()) {
            String file = mount.getSubPath() != null && !mount.getSubPath().isEmpty()
                    ? (path.equals(mount.getMountPath()) ? mount.getSubPath() : null)
                    : path.startsWith(mount.getMountPath() + "/")
                            ? path.substring(mount.getMountPath().length() + 1)
                            : null;
            if (file == null) {
                continue;
            }
            ConfigMapVolumeSource volume = template.getSpec().getVolumes().stream()
                    .filter(v -> v.getName().equals(mount.getName()))
                    .findFirst()
                    .map(Volume::getConfigMap)
                    .orElse(null);
            if (volume == null) {
                throw new AssertionError(where + ": --config " + path + " is on volume " + mount.getName()
                        + ", which is not a ConfigMap volume of the pod");
            }
            String key = volume.getItems() == null
                    ? file
                    : volume.getItems().stream()
                            .filter(item -> item.getPath().equals(file))
                            .map(KeyToPath::getKey)
                            .findFirst()
                            .orElse(file);
            ConfigMap configMap = find(ConfigMap.class, volume.getName())
                    .orElseThrow(() -> new AssertionError(where + ": --config " + path + " is in ConfigMap "
                            + volume.getName() + ", which is not rendered"));
            String text =
                    configMap.getData() == null ? null : configMap.getData().get(key);
            if (text == null) {
                throw new AssertionError(
                        where + ": ConfigMap " + volume.getName() + " has no key " + key + " for --config " + path);
            }
            return parseProperties(text, where + ", " + path);
        }
        throw new AssertionError(where + ": no volume mount provides --config " + path);
    }

    private static Map<String, String> parseProperties(String text, String where) {
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(text));
        } catch (IOException | IllegalArgumentException e) {
            throw new AssertionError(where + ": not a properties file: " + e.getMessage(), e);
        }
        Map<String, String> settings = new TreeMap<>();
        properties.forEach((key, value) ->
                settings.put(key.toString().trim(), value.toString().trim()));
        return settings;
    }
}
