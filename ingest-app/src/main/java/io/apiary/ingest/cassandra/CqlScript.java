package io.apiary.ingest.cassandra;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A CQL file split into statements: comments ({@code --}, {@code //}, {@code /* *}{@code /})
 * removed, statements separated by semicolons outside string literals, and {@code ${name}}
 * placeholders substituted. Immutable; thread-safe.
 *
 * @param name       the file's name, for error messages
 * @param statements the statements, without trailing semicolons
 */
public record CqlScript(String name, List<String> statements) {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([a-zA-Z0-9_.-]+)}");

    /**
     * Parses a CQL file.
     *
     * @param name      the file's name
     * @param text      its content
     * @param variables values of the {@code ${name}} placeholders
     * @return the statements in file order
     * @throws IllegalArgumentException naming the file and placeholder if a placeholder has no value,
     *                                  or if a string literal or block comment is not closed
     */
    public static CqlScript parse(String name, String text, Map<String, String> variables) {
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (c == '\'') {
                int end = text.indexOf('\'', i + 1);
                while (end >= 0 && end + 1 < n && text.charAt(end + 1) == '\'') {
                    end = text.indexOf('\'', end + 2);
                }
                if (end < 0) {
                    throw new IllegalArgumentException(name + ": unterminated string literal");
                }
                current.append(text, i, end + 1);
                i = end + 1;
            } else if (text.startsWith("--", i) || text.startsWith("//", i)) {
                int end = text.indexOf('\n', i);
                i = end < 0 ? n : end;
            } else if (text.startsWith("/*", i)) {
                int end = text.indexOf("*/", i + 2);
                if (end < 0) {
                    throw new IllegalArgumentException(name + ": unterminated block comment");
                }
                i = end + 2;
            } else if (c == ';') {
                addStatement(statements, current, name, variables);
                i++;
            } else {
                current.append(c);
                i++;
            }
        }
        addStatement(statements, current, name, variables);
        return new CqlScript(name, List.copyOf(statements));
    }

    private static void addStatement(List<String> statements, StringBuilder current, String name,
            Map<String, String> variables) {
        String statement = current.toString().strip();
        current.setLength(0);
        if (statement.isEmpty()) {
            return;
        }
        Matcher m = PLACEHOLDER.matcher(statement);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = variables.get(m.group(1));
            if (value == null) {
                throw new IllegalArgumentException(name + ": no value for placeholder ${" + m.group(1) + "}");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        statements.add(out.toString());
    }
}
