package io.apiary.ingest.tablecopy;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A table named on the command line: {@code TABLE}, in the configured keyspace, or
 * {@code KEYSPACE.TABLE}. Names are unquoted CQL identifiers, so case does not matter (they are
 * kept in lower case, as Cassandra stores them). Immutable.
 *
 * @param keyspace the keyspace, lower case
 * @param table    the table, lower case
 */
public record TableRef(String keyspace, String table) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,221}");

    /**
     * @param text            {@code TABLE} or {@code KEYSPACE.TABLE}
     * @param defaultKeyspace the keyspace of a name without one
     * @return the table
     * @throws IllegalArgumentException naming the accepted form
     */
    public static TableRef parse(String text, String defaultKeyspace) {
        String t = text.trim();
        int dot = t.indexOf('.');
        String keyspace = dot < 0 ? defaultKeyspace : t.substring(0, dot);
        String table = dot < 0 ? t : t.substring(dot + 1);
        if (!NAME.matcher(keyspace).matches() || !NAME.matcher(table).matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a table name: write TABLE or KEYSPACE.TABLE "
                    + "(letters, digits and underscores, starting with a letter)");
        }
        return new TableRef(keyspace.toLowerCase(Locale.ROOT), table.toLowerCase(Locale.ROOT));
    }

    /** @return {@code keyspace.table}, usable in CQL as it is */
    public String cql() {
        return keyspace + "." + table;
    }

    @Override
    public String toString() {
        return cql();
    }
}
