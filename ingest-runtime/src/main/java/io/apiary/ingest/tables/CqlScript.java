package io.apiary.ingest.tables;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A CQL file split into statements: comments ({@code --}, {@code //}, {@code /* *}{@code /})
 * removed (a block comment counts as a space), a leading byte-order mark dropped, statements
 * separated by semicolons outside string literals and quoted identifiers, and {@code ${name}}
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
        int i = text.startsWith("\uFEFF") ? 1 : 0; // a UTF-8 byte-order mark is not CQL
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (c == '\'' || c == '"') {
                // a string literal or a quoted identifier; a doubled quote inside escapes it
                int end = text.indexOf(c, i + 1);
                while (end >= 0 && end + 1 < n && text.charAt(end + 1) == c) {
                    end = text.indexOf(c, end + 2);
                }
                if (end < 0) {
                    throw new IllegalArgumentException(
                            name + ": unterminated " + (c == '\'' ? "string literal" : "quoted identifier"));
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
                current.append(' '); // a comment separates tokens: "TABLE/* x */ks.t" is "TABLE ks.t"
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

    private static void addStatement(
            List<String> statements, StringBuilder current, String name, Map<String, String> variables) {
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
