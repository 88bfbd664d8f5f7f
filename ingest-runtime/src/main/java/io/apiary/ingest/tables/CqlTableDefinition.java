package io.apiary.ingest.tables;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shape of one table, read from its {@code CREATE TABLE} statement: its columns and their
 * CQL types, which of them form the partition key, which are clustering columns and which are
 * static, and the table's {@code default_time_to_live}. Only what partition sizing needs; the
 * statement is not validated beyond that (Cassandra does that when it is applied). Immutable
 * and thread-safe.
 *
 * @param keyspace          the keyspace named in the statement, or null if none
 * @param name              the table name (unquoted; case kept only for quoted names)
 * @param columns           column name to CQL type as written (lower-case for built-in types),
 *                          in declaration order
 * @param partitionKey      the partition-key columns, in key order, not empty
 * @param clusteringColumns the clustering columns, in order, possibly empty
 * @param staticColumns     the static columns, possibly empty
 * @param defaultTtlSeconds the table's {@code default_time_to_live} in seconds, 0 if none
 * @param descending        the clustering columns stored in descending order ({@code CLUSTERING
 *                          ORDER BY (... DESC)}); the others are ascending
 */
public record CqlTableDefinition(
        String keyspace,
        String name,
        Map<String, String> columns,
        List<String> partitionKey,
        List<String> clusteringColumns,
        Set<String> staticColumns,
        long defaultTtlSeconds,
        Set<String> descending) {

    private static final Pattern CREATE = Pattern.compile(
            "(?is)\\s*CREATE\\s+(?:TABLE|COLUMNFAMILY)\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?"
                    + "((?:\"(?:[^\"]|\"\")+\"|[A-Za-z0-9_]+)(?:\\s*\\.\\s*(?:\"(?:[^\"]|\"\")+\"|[A-Za-z0-9_]+))?)\\s*\\((.*)");
    private static final Pattern PRIMARY_KEY = Pattern.compile("(?is)PRIMARY\\s+KEY\\s*\\(.*");
    private static final Pattern STRING_LITERAL = Pattern.compile("'(?:[^']|'')*'");
    private static final Pattern ORDER = Pattern.compile("(?is)\\bCLUSTERING\\s+ORDER\\s+BY\\s*\\(([^)]*)\\)");
    private static final Pattern TTL = Pattern.compile("(?is)\\bdefault_time_to_live\\s*=\\s*([0-9]+)");

    /** Copies the collections. */
    public CqlTableDefinition {
        columns = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(columns));
        partitionKey = List.copyOf(partitionKey);
        clusteringColumns = List.copyOf(clusteringColumns);
        staticColumns = Set.copyOf(staticColumns);
        descending = Set.copyOf(descending);
        if (partitionKey.isEmpty()) {
            throw new IllegalArgumentException("table " + name + " has no partition key");
        }
    }

    /** @return the regular columns: neither partition-key, clustering nor static, in declaration order */
    public List<String> regularColumns() {
        return columns.keySet().stream()
                .filter(c -> !partitionKey.contains(c) && !clusteringColumns.contains(c) && !staticColumns.contains(c))
                .toList();
    }

    /**
     * Reads a {@code CREATE TABLE} statement.
     *
     * @param statement one CQL statement without comments (as {@link io.apiary.ingest.tables.CqlScript} gives)
     * @return the table, or empty if the statement is not a {@code CREATE TABLE}
     * @throws IllegalArgumentException if it is one but its column list or primary key cannot be read,
     *                                  or the primary key names a column that is not declared
     */
    public static Optional<CqlTableDefinition> parse(String statement) {
        Matcher m = CREATE.matcher(statement);
        if (!m.matches()) {
            return Optional.empty();
        }
        String qualified = m.group(1);
        String keyspace = null;
        String name = qualified;
        int dot = splitDot(qualified);
        if (dot >= 0) {
            keyspace = identifier(qualified.substring(0, dot));
            name = qualified.substring(dot + 1);
        }
        name = identifier(name);
        String rest = m.group(2);
        int close = matchingParen(rest, 0);
        if (close < 0) {
            throw new IllegalArgumentException("CREATE TABLE " + name + ": unbalanced parentheses");
        }
        String body = rest.substring(0, close);
        String options = rest.substring(close + 1);

        Map<String, String> columns = new LinkedHashMap<>();
        List<String> partitionKey = new ArrayList<>();
        List<String> clustering = new ArrayList<>();
        List<String> statics = new ArrayList<>();
        for (String part : splitTopLevel(body)) {
            String item = part.strip();
            if (item.isEmpty()) {
                continue;
            }
            if (PRIMARY_KEY.matcher(item).matches()) {
                readPrimaryKey(name, item, partitionKey, clustering);
                continue;
            }
            readColumn(name, item, columns, statics, partitionKey);
        }
        if (partitionKey.isEmpty()) {
            throw new IllegalArgumentException("CREATE TABLE " + name + ": no PRIMARY KEY found");
        }
        for (String key : concat(partitionKey, clustering)) {
            if (!columns.containsKey(key)) {
                throw new IllegalArgumentException(
                        "CREATE TABLE " + name + ": primary key column '" + key + "' is not declared");
            }
        }
        Matcher ttl = TTL.matcher(STRING_LITERAL.matcher(options).replaceAll("''"));
        long ttlSeconds = ttl.find() ? Long.parseLong(ttl.group(1)) : 0;
        Set<String> descending = new java.util.HashSet<>();
        Matcher order = ORDER.matcher(STRING_LITERAL.matcher(options).replaceAll("''"));
        if (order.find()) {
            for (String item : order.group(1).split(",")) {
                String[] words = item.strip().split("\\s+");
                if (words.length == 2 && words[1].equalsIgnoreCase("DESC")) {
                    descending.add(identifier(words[0]));
                }
            }
        }
        return Optional.of(new CqlTableDefinition(
                keyspace, name, columns, partitionKey, clustering, Set.copyOf(statics), ttlSeconds, descending));
    }

    private static void readColumn(
            String table, String item, Map<String, String> columns, List<String> statics, List<String> partitionKey) {
        String name;
        String rest;
        if (item.startsWith("\"")) {
            int end = closingQuote(item, 0);
            if (end >= item.length()) {
                throw new IllegalArgumentException(
                        "CREATE TABLE " + table + ": unterminated quoted name in '" + item + "'");
            }
            name = identifier(item.substring(0, end + 1));
            rest = item.substring(end + 1).strip();
        } else {
            String[] words = item.split("\\s+", 2);
            if (words.length < 2) {
                throw new IllegalArgumentException("CREATE TABLE " + table + ": column '" + item + "' has no type");
            }
            name = words[0].toLowerCase(Locale.ROOT);
            rest = words[1].strip();
        }
        String upper = rest.toUpperCase(Locale.ROOT);
        boolean primary = upper.matches("(?s).*\\bPRIMARY\\s+KEY\\s*$");
        if (primary) {
            rest = rest.substring(0, upper.lastIndexOf("PRIMARY")).strip();
            upper = rest.toUpperCase(Locale.ROOT);
        }
        if (upper.matches("(?s).*\\bSTATIC$")) {
            rest = rest.substring(0, upper.lastIndexOf("STATIC")).strip();
            statics.add(name);
        }
        if (rest.isEmpty()) {
            throw new IllegalArgumentException("CREATE TABLE " + table + ": column '" + name + "' has no type");
        }
        columns.put(name, normalizeType(rest));
        if (primary) {
            partitionKey.add(name);
        }
    }

    private static void readPrimaryKey(String table, String item, List<String> partitionKey, List<String> clustering) {
        int open = item.indexOf('(');
        int close = open < 0 ? -1 : matchingParen(item, open + 1);
        if (close < 0) {
            throw new IllegalArgumentException("CREATE TABLE " + table + ": cannot read '" + item + "'");
        }
        List<String> parts = splitTopLevel(item.substring(open + 1, close));
        if (!partitionKey.isEmpty()) {
            throw new IllegalArgumentException("CREATE TABLE " + table + ": two primary keys");
        }
        for (int i = 0; i < parts.size(); i++) {
            String part = parts.get(i).strip();
            if (i == 0 && part.startsWith("(")) {
                int end = matchingParen(part, 1);
                for (String key : splitTopLevel(part.substring(1, end))) {
                    partitionKey.add(identifier(key.strip()));
                }
            } else if (i == 0) {
                partitionKey.add(identifier(part));
            } else {
                clustering.add(identifier(part));
            }
        }
    }

    private static String normalizeType(String type) {
        String compact = type.replaceAll("\\s+", " ").replaceAll("\\s*([<>,])\\s*", "$1");
        return compact.startsWith("\"") ? compact : compact.toLowerCase(Locale.ROOT);
    }

    private static String identifier(String text) {
        String t = text.strip();
        return t.startsWith("\"") && t.endsWith("\"") && t.length() >= 2
                ? t.substring(1, t.length() - 1).replace("\"\"", "\"")
                : t.toLowerCase(Locale.ROOT);
    }

    private static int splitDot(String qualified) {
        for (int i = 0; i < qualified.length(); i++) {
            char c = qualified.charAt(i);
            if (c == '"') {
                i = closingQuote(qualified, i);
            } else if (c == '.') {
                return i;
            }
        }
        return -1;
    }

    /**
     * @return the index of the quote closing the one at {@code open} (a doubled quote inside is
     *         an escaped quote), or the text's length if it is not closed
     */
    private static int closingQuote(String text, int open) {
        char quote = text.charAt(open);
        int i = open + 1;
        while (i < text.length()) {
            if (text.charAt(i) == quote) {
                if (i + 1 < text.length() && text.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i;
            }
            i++;
        }
        return text.length();
    }

    /** @return the index of the ')' closing the '(' just before {@code from}, or -1 */
    private static int matchingParen(String text, int from) {
        int depth = 1;
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\'' || c == '"') {
                i = closingQuote(text, i);
            } else if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i;
            }
        }
        return -1;
    }

    /** Splits on commas outside parentheses, angle brackets and quotes. */
    private static List<String> splitTopLevel(String text) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\'' || c == '"') {
                i = closingQuote(text, i);
            } else if (c == '(' || c == '<') {
                depth++;
            } else if (c == ')' || c == '>') {
                depth--;
            } else if (c == ',' && depth == 0) {
                parts.add(text.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(text.substring(start));
        return parts;
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
