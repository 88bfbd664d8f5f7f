package io.apiary.ingest.tables;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The tables of a set of CQL files, by name: the one place the application learns a table's shape.
 * {@link #bundled()} holds the tables of {@code cql/} and {@code cql/legacy/} as the build packs
 * them into the application; {@link #of(Path)} those of another folder (a test's, a user's own).
 * Immutable and thread-safe.
 */
public final class TableCatalog {

    /** Keyspace put in for {@code ${keyspace}} when reading the bundled files; the shapes do not depend on it. */
    private static final String ANY_KEYSPACE = "apiary";

    private static final class Bundled {
        static final TableCatalog INSTANCE = read(List.of(
                CqlFiles.bundled("/cql", ANY_KEYSPACE, "{}"), CqlFiles.bundled("/cql/legacy", ANY_KEYSPACE, "{}")));
    }

    private final Map<String, TableDescriptor> tables;

    private TableCatalog(Map<String, TableDescriptor> tables) {
        this.tables = Collections.unmodifiableMap(tables);
    }

    /**
     * @return the tables of the bundled {@code cql/} and {@code cql/legacy/}, read once
     * @throws IllegalStateException (on first use) if the bundled files are missing or unreadable
     */
    public static TableCatalog bundled() {
        return Bundled.INSTANCE;
    }

    /**
     * @param folder a folder of {@code .cql} files, not null
     * @return the tables of its {@code CREATE TABLE} statements
     * @throws IllegalArgumentException if a file or a statement cannot be read
     * @throws java.io.UncheckedIOException if the folder cannot be read
     */
    public static TableCatalog of(Path folder) {
        return read(List.of(CqlFiles.load(folder, ANY_KEYSPACE, "{}")));
    }

    private static TableCatalog read(List<List<CqlScript>> scriptSets) {
        Map<String, TableDescriptor> tables = new LinkedHashMap<>();
        for (List<CqlScript> scripts : scriptSets) {
            for (CqlScript script : scripts) {
                for (String statement : script.statements()) {
                    try {
                        CqlTableDefinition.parse(statement)
                                .map(TableDescriptor::of)
                                .ifPresent(t -> tables.put(t.name(), t));
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException(script.name() + ": " + e.getMessage(), e);
                    }
                }
            }
        }
        return new TableCatalog(tables);
    }

    /**
     * @param name a table name, without keyspace
     * @return its descriptor
     * @throws IllegalArgumentException naming the known tables if there is none of that name
     */
    public TableDescriptor table(String name) {
        return find(name)
                .orElseThrow(() -> new IllegalArgumentException(
                        "no table " + name + " in the CQL files (known: " + String.join(", ", tables.keySet()) + ")"));
    }

    /**
     * @param name a table name, without keyspace
     * @return its descriptor, or empty
     */
    public Optional<TableDescriptor> find(String name) {
        return Optional.ofNullable(tables.get(name));
    }

    /** @return every table, in file and statement order */
    public List<TableDescriptor> tables() {
        return List.copyOf(new ArrayList<>(tables.values()));
    }
}
