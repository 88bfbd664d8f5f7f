package io.apiary.ingest.read;

import java.time.Instant;
import java.time.LocalDate;
import java.util.Objects;
import java.util.function.Function;

/**
 * One output column of a row type, declared once and shared by the three {@link OutputFormat}s.
 * Immutable; thread-safe if the extractor is (the ones of {@link RowColumns} are).
 *
 * @param name  the column's name, snake_case as the CQL column (the CSV header, the JSON field name,
 *              the table header), not null
 * @param value the extractor: the row's value, one of {@link String}, {@link Long}, {@link Integer},
 *              {@link Double}, {@link Instant}, {@link LocalDate}, or null; not null
 * @param align how the table format aligns the column
 * @param <R>   the row type
 */
public record OutputColumn<R>(String name, Function<? super R, ?> value, Align align) {

    /** Horizontal alignment in the table format. */
    public enum Align {
        LEFT,
        RIGHT
    }

    /** Checks the fields. */
    public OutputColumn {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(align, "align");
    }

    /** @return a left-aligned column (text, times) */
    static <R> OutputColumn<R> left(String name, Function<? super R, ?> value) {
        return new OutputColumn<>(name, value, Align.LEFT);
    }

    /** @return a right-aligned column (numbers) */
    static <R> OutputColumn<R> right(String name, Function<? super R, ?> value) {
        return new OutputColumn<>(name, value, Align.RIGHT);
    }

    /**
     * The loss-less text form of a value, shared by the table and CSV formats.
     *
     * @param value a value as an extractor returns it
     * @return null for null; a double as {@link Double#toString(double)} (shortest text that reads back
     *         as the same double: {@code 21.5}, {@code 1.0E-5}); an instant as ISO-8601 UTC
     *         ({@code 2021-07-15T17:00:00Z}, milliseconds only when not zero); a date as
     *         {@code 2021-07-15}; anything else with {@link String#valueOf(Object)}
     */
    static String text(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof Double d) {
            return Double.toString(d);
        }
        return value.toString();
    }
}
