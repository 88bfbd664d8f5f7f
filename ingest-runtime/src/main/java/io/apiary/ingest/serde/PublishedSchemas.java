package io.apiary.ingest.serde;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;

/**
 * The published form of an Avro schema: the schema as {@code schemas/*.avsc} states it, without
 * the properties that only Avro's Java code generation reads. The classes generated with the
 * avro-maven-plugin's {@code stringType=String} carry {@code "avro.java.string":"String"} on every
 * string type, and {@code java-class}, {@code java-key-class} or {@code java-element-class} can
 * appear too; a client in another language (or a Java one reading the {@code .avsc} file) never
 * sends them, and registries compare schema text (Apicurio Registry 2.x byte for byte, Confluent
 * Schema Registry with properties), so the pipeline registers and looks up the published form.
 *
 * <p>Only those {@link #JAVA_PROPERTIES} are removed, at every schema and field of the tree (never
 * inside a field's default value); docs, field order, defaults, aliases, logical types and other
 * properties stay, so the result's text ({@link Schema#toString()}) equals that of the {@code
 * .avsc} file parsed by Avro. Stateless and thread-safe.
 */
public final class PublishedSchemas {

    /** The properties Avro's Java code generation adds or reads, removed from the published form. */
    public static final Set<String> JAVA_PROPERTIES =
            Set.of("avro.java.string", "java-class", "java-key-class", "java-element-class");

    /** Keys whose value is a schema, a list of schemas (a union) or a list of fields. */
    private static final Set<String> SCHEMA_KEYS = Set.of("type", "items", "values", "fields");

    private static final ObjectMapper JSON = new ObjectMapper();

    private PublishedSchemas() {}

    /**
     * @param schema a schema, e.g. a generated class's {@code getClassSchema()}; not null
     * @return the same schema without {@link #JAVA_PROPERTIES}: {@code schema} itself when it has
     *         none, else a new schema with the same parsing canonical form
     * @throws IllegalStateException if the stripped text cannot be parsed (it always can when
     *         {@code schema} is valid)
     */
    public static Schema of(Schema schema) {
        String text = schema.toString();
        JsonNode tree;
        try {
            tree = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Avro's own text of " + schema.getFullName() + " is not JSON", e);
        }
        JsonNode stripped = strip(tree);
        if (stripped.equals(tree)) {
            return schema;
        }
        return new Schema.Parser().parse(stripped.toString());
    }

    /**
     * @param schema a schema, not null
     * @return whether a {@link #JAVA_PROPERTIES} property appears anywhere in its tree
     */
    public static boolean hasJavaProperties(Schema schema) {
        return of(schema) != schema;
    }

    /**
     * Whether two schemas are the same in Avro's terms: equal parsing canonical forms (the Avro
     * specification's "Parsing Canonical Form", compared by its 64-bit fingerprint), whatever
     * their docs, properties or text.
     *
     * @param a a schema, not null
     * @param b another, not null
     * @return whether their parsing canonical forms are equal
     */
    public static boolean sameCanonicalForm(Schema a, Schema b) {
        return SchemaNormalization.parsingFingerprint64(Objects.requireNonNull(a))
                == SchemaNormalization.parsingFingerprint64(Objects.requireNonNull(b));
    }

    /** @return a copy of a schema node (or a list of them, or of fields) without the Java properties */
    private static JsonNode strip(JsonNode node) {
        if (node.isArray()) {
            ArrayNode out = JSON.createArrayNode();
            node.forEach(element -> out.add(strip(element)));
            return out;
        }
        if (!node.isObject()) {
            return node;
        }
        ObjectNode out = JSON.createObjectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            String key = entry.getKey();
            if (JAVA_PROPERTIES.contains(key)) {
                continue;
            }
            out.set(key, SCHEMA_KEYS.contains(key) ? strip(entry.getValue()) : entry.getValue());
        }
        return out;
    }
}
