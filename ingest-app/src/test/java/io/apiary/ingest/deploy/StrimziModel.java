package io.apiary.ingest.deploy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import tools.jackson.databind.json.JsonMapper;

/**
 * Strimzi's custom resources read with Strimzi's own API model ({@code io.strimzi:api}, the classes
 * its operators read them with), as strictly as {@link StrictYaml} reads the Kubernetes ones.
 *
 * <p>The model is built on fabric8 7 and Jackson 2, which clash with the fabric8 8 model (Jackson
 * 3) of the test classpath: same {@code io.fabric8} packages. So its jars are not on the test
 * classpath: the build copies them to {@code target/strimzi-api-lib} ({@code copy-strimzi-api} in
 * ingest-app/pom.xml, system property {@code apiary.strimzi.api.lib}) and this class loads them in
 * a class loader of their own, whose parent is the platform class loader (nothing of the test
 * classpath is seen from it), and calls them reflectively. A document goes across as JSON text.
 *
 * <p>Strimzi's model classes keep unknown fields in {@code additionalProperties} (the operator
 * warns and ignores them), so, as {@link StrictYaml} does for fabric8, the parsed object graph is
 * walked and any such field fails with its path; unknown enum values (an ACL operation
 * {@code Al}) and wrong types fail in Jackson. The loader is made once; thread-safe.
 */
final class StrimziModel {

    /** Strimzi's API groups and versions that {@link #check} reads (v1 from Strimzi 0.49; v1beta2 before and since). */
    static final List<String> API_VERSIONS = List.of("kafka.strimzi.io/v1beta2", "kafka.strimzi.io/v1");

    /** Kinds read, by kind: the model class of Strimzi's API. */
    static final Map<String, String> MODEL_CLASSES = Map.of(
            "KafkaTopic", "io.strimzi.api.kafka.model.topic.KafkaTopic",
            "KafkaUser", "io.strimzi.api.kafka.model.user.KafkaUser");

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private StrimziModel() {}

    /** The isolated loader and a configured Jackson 2 ObjectMapper of it, made on first use. */
    private static final class Loaded {
        static final URLClassLoader LOADER = loader();
        static final Object MAPPER = mapper();

        private static URLClassLoader loader() {
            Path lib = Path.of(System.getProperty("apiary.strimzi.api.lib", "target/strimzi-api-lib"));
            List<URL> jars = new ArrayList<>();
            try (Stream<Path> files = Files.list(lib)) {
                for (Path jar : files.filter(f -> f.toString().endsWith(".jar"))
                        .sorted()
                        .toList()) {
                    jars.add(jar.toUri().toURL());
                }
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "No Strimzi API jars in " + lib.toAbsolutePath()
                                + ": the build copies them there (ingest-app/pom.xml, execution copy-strimzi-api; "
                                + "run the tests through Maven, or mvn generate-test-resources once)",
                        e);
            }
            if (jars.stream().noneMatch(u -> u.getPath().contains("/api-"))) {
                throw new IllegalStateException("No io.strimzi:api jar in " + lib.toAbsolutePath());
            }
            return new URLClassLoader("strimzi-api", jars.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
        }

        private static Object mapper() {
            try {
                Class<?> mapperType = LOADER.loadClass("com.fasterxml.jackson.databind.ObjectMapper");
                Object mapper = mapperType.getConstructor().newInstance();
                configure(
                        mapper,
                        "com.fasterxml.jackson.databind.DeserializationFeature",
                        "FAIL_ON_UNKNOWN_PROPERTIES",
                        true);
                configure(
                        mapper,
                        "com.fasterxml.jackson.databind.DeserializationFeature",
                        "FAIL_ON_NULL_FOR_PRIMITIVES",
                        true);
                configure(
                        mapper,
                        "com.fasterxml.jackson.databind.DeserializationFeature",
                        "READ_UNKNOWN_ENUM_VALUES_AS_NULL",
                        false);
                configure(mapper, "com.fasterxml.jackson.databind.MapperFeature", "ALLOW_COERCION_OF_SCALARS", false);
                return mapper;
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("Cannot make Jackson 2's ObjectMapper from the Strimzi API jars", e);
            }
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        private static void configure(Object mapper, String featureType, String feature, boolean on)
                throws ReflectiveOperationException {
            Class<? extends Enum> type = (Class<? extends Enum>) LOADER.loadClass(featureType);
            Object value = Enum.valueOf(type, feature);
            mapper.getClass().getMethod("configure", type, boolean.class).invoke(mapper, value, on);
        }
    }

    /**
     * @param generic a document of one of {@link #API_VERSIONS} and {@link #MODEL_CLASSES}' kinds, not null
     * @param where   the source and document, for messages
     * @return the document, once Strimzi's model read it without an unknown field, a wrong type or
     *         an unknown enum value
     * @throws AssertionError naming {@code where} and the field otherwise
     */
    static HasMetadata check(GenericKubernetesResource generic, String where) {
        read(JSON.writeValueAsString(generic), generic.getKind(), where);
        return generic;
    }

    /**
     * Reads a document with Strimzi's model, strictly.
     *
     * @param json  the document as JSON
     * @param kind  a kind of {@link #MODEL_CLASSES}
     * @param where for messages
     * @return the model object (of the isolated class loader; use it reflectively, or {@link #toJson})
     * @throws AssertionError naming {@code where} and the field when it does not read strictly
     */
    static Object read(String json, String kind, String where) {
        String className = MODEL_CLASSES.get(kind);
        if (className == null) {
            throw new AssertionError(where + ": no Strimzi model class for kind " + kind);
        }
        Object model;
        try {
            Class<?> type = Loaded.LOADER.loadClass(className);
            Method readValue = Loaded.MAPPER.getClass().getMethod("readValue", String.class, Class.class);
            model = readValue.invoke(Loaded.MAPPER, json, type);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            throw new AssertionError(
                    where + ": Strimzi's " + kind + " model (io.strimzi:api) refuses it: " + originalMessage(cause),
                    cause);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Cannot use Strimzi's model class " + className, e);
        }
        List<String> unknown = new ArrayList<>();
        collectUnknown(model, JSON.readValue(json, Map.class), "", unknown);
        if (!unknown.isEmpty()) {
            throw new AssertionError(where + " (" + kind + "): unknown field(s) " + String.join(", ", unknown)
                    + " (not in Strimzi's " + kind + " API, io.strimzi:api; the operator would ignore them)");
        }
        return model;
    }

    /**
     * @param model an object of {@link #read}
     * @return it written by Strimzi's model as JSON (defaults and enum spellings as Strimzi writes them)
     */
    static String toJson(Object model) {
        try {
            return (String) Loaded.MAPPER
                    .getClass()
                    .getMethod("writeValueAsString", Object.class)
                    .invoke(Loaded.MAPPER, model);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Cannot write " + model.getClass().getName() + " with Jackson 2", e);
        }
    }

    private static String originalMessage(Throwable cause) {
        try {
            Method original = cause.getClass().getMethod("getOriginalMessage");
            return String.valueOf(original.invoke(cause));
        } catch (ReflectiveOperationException e) {
            return String.valueOf(cause.getMessage());
        }
    }

    /**
     * Walks the model object and the document it was read from side by side: a field kept in
     * {@code additionalProperties} is unknown, and so is a value the document gives where the
     * model holds none (Strimzi's enums read a value they do not define, such as an ACL operation
     * {@code Reed}, as null; its CRD's schema would refuse it).
     */
    private static void collectUnknown(Object value, Object input, String path, List<String> unknown) {
        if (value == null) {
            if (input != null) {
                unknown.add(path + " (value " + input + " is not one the API defines)");
            }
        } else if (value instanceof List<?> list) {
            List<?> inputs = input instanceof List<?> l && l.size() == list.size() ? l : null;
            for (int i = 0; i < list.size(); i++) {
                collectUnknown(list.get(i), inputs == null ? null : inputs.get(i), path + "[" + i + "]", unknown);
            }
        } else if (value instanceof Map<?, ?> map) {
            Map<?, ?> inputs = input instanceof Map<?, ?> m ? m : Map.of();
            map.forEach((key, entry) -> collectUnknown(entry, inputs.get(key), path + "[" + key + "]", unknown));
        } else if (isModel(value.getClass())) {
            Map<?, ?> inputs = input instanceof Map<?, ?> m ? m : Map.of();
            for (Class<?> type = value.getClass(); type != null && type != Object.class; type = type.getSuperclass()) {
                for (Field field : type.getDeclaredFields()) {
                    if (!Modifier.isStatic(field.getModifiers())) {
                        collectField(value, inputs, field, path, unknown);
                    }
                }
            }
        }
    }

    private static boolean isModel(Class<?> type) {
        String name = type.getName();
        return !type.isEnum() && (name.startsWith("io.strimzi.") || name.startsWith("io.fabric8."));
    }

    private static void collectField(Object owner, Map<?, ?> inputs, Field field, String path, List<String> unknown) {
        Object value;
        try {
            field.setAccessible(true);
            value = field.get(owner);
        } catch (IllegalAccessException | RuntimeException e) {
            throw new IllegalStateException("Cannot read " + field + " of Strimzi's model", e);
        }
        if (field.getName().equals("additionalProperties") && value instanceof Map<?, ?> extra) {
            extra.keySet().forEach(key -> unknown.add(child(path, key.toString())));
            return;
        }
        String name = jsonName(field);
        Object input = inputs.get(name);
        if (value == null
                && input != null
                && !field.getType().isEnum()
                && !List.class.isAssignableFrom(field.getType())) {
            // set through another property (a deprecated alias) or kept elsewhere: not an enum that refused its value
            return;
        }
        collectUnknown(value, input, child(path, name), unknown);
    }

    /** The field's {@code @JsonProperty} name (Jackson 2's annotation, of the isolated loader), else its name. */
    private static String jsonName(Field field) {
        for (Annotation annotation : field.getDeclaredAnnotations()) {
            if (annotation.annotationType().getName().equals("com.fasterxml.jackson.annotation.JsonProperty")) {
                try {
                    String value = (String)
                            annotation.annotationType().getMethod("value").invoke(annotation);
                    if (!value.isEmpty()) {
                        return value;
                    }
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("Cannot read @JsonProperty of " + field, e);
                }
            }
        }
        return field.getName();
    }

    private static String child(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }
}
