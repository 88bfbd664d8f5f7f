package io.apiary.ingest.deploy;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.MappingIterator;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.type.LogicalType;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Reads Kubernetes YAML as strictly as the API server does: every document into its fabric8
 * kubernetes-model class (chosen by {@code apiVersion} and {@code kind}), then a walk of the whole
 * object graph that fails on any field the model does not know.
 *
 * <p>The walk is needed because the fabric8 model classes keep unknown fields in
 * {@code additionalProperties} instead of failing; a misspelt {@code imagePullPolicyy} would
 * otherwise pass. Scalars are not coerced either (a quoted {@code replicas: "3"} or an unquoted
 * annotation value {@code prometheus.io/port: 8080} fails, as {@code kubectl apply} does), and
 * duplicate keys fail. Stateless and thread-safe.
 */
final class StrictYaml {

    private static final YAMLMapper MAPPER = YAMLMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .withCoercionConfig(
                    LogicalType.Textual,
                    text -> text.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                            .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                            .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
            .build();

    private StrictYaml() {}

    /**
     * Parses every document of a YAML text into the Kubernetes model.
     *
     * @param yaml   one or more YAML documents, each a Kubernetes object (possibly partial, as in a patch)
     * @param source where the text comes from, for messages (a file, or {@code kubectl kustomize DIR})
     * @return the objects in document order; empty documents are skipped
     * @throws AssertionError naming the source, the document and what is wrong: YAML syntax, a wrong
     *                        type, an unknown kind, or the paths of unknown fields
     */
    static List<HasMetadata> kubernetesObjects(String yaml, String source) {
        List<HasMetadata> objects = new ArrayList<>();
        int document = 0;
        try (MappingIterator<KubernetesResource> documents =
                MAPPER.readerFor(KubernetesResource.class).readValues(yaml)) {
            while (documents.hasNextValue()) {
                document++;
                KubernetesResource resource = documents.nextValue();
                if (resource == null) {
                    continue;
                }
                String where = source + ", document " + document;
                if (resource instanceof GenericKubernetesResource generic) {
                    Optional<HasMetadata> custom = CustomKinds.parse(generic, where);
                    if (custom.isPresent()) {
                        objects.add(custom.get());
                        continue;
                    }
                    throw new AssertionError(where + ": unknown kind " + generic.getKind() + " of apiVersion "
                            + generic.getApiVersion()
                            + " (not in the fabric8 kubernetes-model on the test classpath, nor in "
                            + CustomKinds.class.getSimpleName() + ")");
                }
                if (!(resource instanceof HasMetadata object)) {
                    throw new AssertionError(where + ": not a Kubernetes object but "
                            + resource.getClass().getSimpleName());
                }
                requireKnownFields(
                        object,
                        where + " (" + object.getKind() + " "
                                + object.getMetadata().getName() + ")");
                objects.add(object);
            }
        } catch (JacksonException e) {
            throw new AssertionError(
                    source + ", document " + Math.max(document, 1) + ": " + e.getOriginalMessage() + " at line "
                            + e.getLocation().getLineNr(),
                    e);
        }
        return objects;
    }

    /**
     * Parses a kustomization file into {@link Kustomization}, refusing any field it does not list.
     *
     * @param yaml   the file's text
     * @param source the file, for messages
     * @return the kustomization
     * @throws AssertionError naming the file, the line and the field when it does not parse, or when
     *                        it is not a {@code kustomize.config.k8s.io/v1beta1} Kustomization
     */
    static Kustomization kustomization(String yaml, String source) {
        Kustomization kustomization;
        try {
            kustomization = MAPPER.readValue(yaml, Kustomization.class);
        } catch (JacksonException e) {
            throw new AssertionError(
                    source + ": " + e.getOriginalMessage() + " at line "
                            + e.getLocation().getLineNr() + " (fields kustomize supports and deploy/ uses are those of "
                            + Kustomization.class.getName() + ")",
                    e);
        }
        boolean kustomizationKind = "kustomize.config.k8s.io/v1beta1".equals(kustomization.apiVersion())
                && "Kustomization".equals(kustomization.kind());
        boolean componentKind = "kustomize.config.k8s.io/v1alpha1".equals(kustomization.apiVersion())
                && "Component".equals(kustomization.kind());
        if (!kustomizationKind && !componentKind) {
            throw new AssertionError(source + ": expected apiVersion kustomize.config.k8s.io/v1beta1 and kind "
                    + "Kustomization (or kustomize.config.k8s.io/v1alpha1 and Component), found "
                    + kustomization.apiVersion() + " " + kustomization.kind());
        }
        return kustomization;
    }

    /**
     * Converts a parsed object into a model class of the tests' own (for custom resources without
     * a published Java model), as strictly as documents are read: an unknown field, a wrong type
     * or a scalar that would need coercion fails. Fabric8 objects inside the model (metadata, an
     * HPA behavior) are walked for unknown fields too.
     *
     * @param value the object, e.g. a {@link GenericKubernetesResource}, not null
     * @param type  the model class (a record whose components are the kind's fields)
     * @param where the object, for messages
     * @return the converted object
     * @throws AssertionError naming {@code where} and the field if it does not convert
     */
    static <T> T convert(Object value, Class<T> type, String where) {
        T converted;
        try {
            converted = MAPPER.convertValue(value, type);
        } catch (JacksonException e) {
            throw new AssertionError(
                    where + ": " + e.getOriginalMessage() + " (fields of " + type.getSimpleName()
                            + " are those the kind's API defines)",
                    e);
        }
        requireKnownFieldsBelow(converted, where);
        return converted;
    }

    private static void requireKnownFieldsBelow(Object value, String where) {
        if (value instanceof Record record) {
            for (var component : record.getClass().getRecordComponents()) {
                Object child;
                try {
                    child = component.getAccessor().invoke(record);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("Cannot read " + component, e);
                }
                requireKnownFieldsBelow(child, where + ", " + component.getName());
            }
        } else if (value instanceof List<?> list) {
            list.forEach(item -> requireKnownFieldsBelow(item, where));
        } else if (value != null && value.getClass().getName().startsWith("io.fabric8.")) {
            requireKnownFields(value, where);
        }
    }

    /**
     * @param object a parsed Kubernetes object
     * @param where  the object, for the message
     * @throws AssertionError listing the path of every field the model did not know
     */
    static void requireKnownFields(Object object, String where) {
        List<String> unknown = new ArrayList<>();
        collectUnknownFields(object, "", unknown);
        if (!unknown.isEmpty()) {
            throw new AssertionError(where + ": unknown field(s) " + String.join(", ", unknown)
                    + " (misspelt, misplaced, or not in the Kubernetes API)");
        }
    }

    private static void collectUnknownFields(Object value, String path, List<String> unknown) {
        if (value instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                collectUnknownFields(list.get(i), path + "[" + i + "]", unknown);
            }
        } else if (value instanceof Map<?, ?> map) {
            map.forEach((key, entry) -> collectUnknownFields(entry, path + "[" + key + "]", unknown));
        } else if (value != null && value.getClass().getName().startsWith("io.fabric8.")) {
            for (Class<?> type = value.getClass(); type != Object.class; type = type.getSuperclass()) {
                for (Field field : type.getDeclaredFields()) {
                    if (!Modifier.isStatic(field.getModifiers())) {
                        collectField(value, field, path, unknown);
                    }
                }
            }
        }
    }

    private static void collectField(Object owner, Field field, String path, List<String> unknown) {
        field.setAccessible(true);
        Object value;
        try {
            value = field.get(owner);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("Cannot read " + field + " of the fabric8 model", e);
        }
        if (field.getName().equals("additionalProperties") && value instanceof Map<?, ?> extra) {
            extra.keySet().forEach(key -> unknown.add(child(path, key.toString())));
            return;
        }
        JsonProperty property = field.getAnnotation(JsonProperty.class);
        String name = property != null && !property.value().isEmpty() ? property.value() : field.getName();
        collectUnknownFields(value, child(path, name), unknown);
    }

    private static String child(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }
}
