package io.apiary.ingest.tablecopy;

import com.datastax.oss.driver.api.core.cql.Row;
import java.util.ArrayList;
import java.util.List;

/**
 * The query that reads one token range of a table, in token order, with the write time and TTL
 * of every regular cell:
 * {@code SELECT token(pk...), columns..., WRITETIME(c), TTL(c), ... FROM t WHERE token(pk...) > ?
 * AND token(pk...) <= ?}. A row's write time is the greatest of its cells' (the copy writes every
 * cell with it), and its TTL the remaining TTL of that cell (0 when it has none). A row with no
 * regular cell (every regular column null) has neither. Immutable, thread-safe.
 */
public final class ScanQuery {

    private final TableRef table;
    private final TableShape shape;
    private final java.util.Map<String, Integer> positions = new java.util.HashMap<>();

    /**
     * @param table the table, not null
     * @param shape its layout, not null
     */
    public ScanQuery(TableRef table, TableShape shape) {
        this.table = table;
        this.shape = shape;
        List<String> columns = shape.columns();
        for (int i = 0; i < columns.size(); i++) {
            positions.put(columns.get(i), i + 1);
        }
    }

    /** @return the CQL text, with two markers: the token after which the range starts, and its last token */
    public String cql() {
        String token = "token(" + String.join(", ", shape.partitionKey()) + ")";
        List<String> selected = new ArrayList<>();
        selected.add(token);
        selected.addAll(shape.columns());
        for (String column : shape.regular()) {
            selected.add("WRITETIME(" + column + ")");
            selected.add("TTL(" + column + ")");
        }
        return "SELECT " + String.join(", ", selected) + " FROM " + table.cql() + " WHERE " + token + " > ? AND "
                + token + " <= ?";
    }

    /** @return the table read */
    public TableRef table() {
        return table;
    }

    /** @return the layout read */
    public TableShape shape() {
        return shape;
    }

    /**
     * @param row a row of {@link #cql()}'s result, not null
     * @return its token, values, write time and TTL
     */
    public ScannedRow read(Row row) {
        int first = 1 + shape.columns().size();
        int cells = shape.regular().size();
        Long[] writeTimes = new Long[cells];
        Integer[] ttls = new Integer[cells];
        for (int i = 0; i < cells; i++) {
            writeTimes[i] = row.isNull(first + 2 * i) ? null : row.getLong(first + 2 * i);
            ttls[i] = row.isNull(first + 2 * i + 1) ? null : row.getInt(first + 2 * i + 1);
        }
        int latest = latest(writeTimes);
        return new ScannedRow(
                row.getLong(0),
                new ColumnValues() {
                    @Override
                    public <V> V get(String column, Class<V> type) {
                        Integer position = positions.get(column);
                        if (position == null) {
                            throw new IllegalArgumentException(column + " is not a column of " + shape);
                        }
                        return row.get(position, type);
                    }
                },
                latest < 0 ? ScannedRow.NO_CELLS : writeTimes[latest],
                latest < 0 || ttls[latest] == null ? 0 : ttls[latest]);
    }

    /**
     * @param writeTimes the write times of a row's regular cells, null for a null cell
     * @return the index of the greatest (the first of equals), or -1 when every cell is null
     */
    static int latest(Long[] writeTimes) {
        int latest = -1;
        for (int i = 0; i < writeTimes.length; i++) {
            if (writeTimes[i] != null && (latest < 0 || writeTimes[i] > writeTimes[latest])) {
                latest = i;
            }
        }
        return latest;
    }
}
