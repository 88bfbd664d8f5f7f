package io.apiary.ingest.tablecopy;

import java.util.ArrayDeque;

/**
 * The progress of one token range's copy: which of its pages are written, and so up to which
 * token every row is acknowledged by Cassandra, the position that may be saved. Pages are read in
 * token order and written in any order; the position moves over the pages whose rows are all
 * written, in order, and never past a page with a row that could not be written (a rerun copies
 * from there again). Pure logic; not thread-safe (the copy's loop).
 */
final class RangeCursor {

    /** One page of rows read: its rows still to be acknowledged, and the position after it. */
    static final class Page {
        final int rows;
        final long safeToken;
        final boolean last;
        int pending;
        boolean failed;

        private Page(int rows, long safeToken, boolean last) {
            this.rows = rows;
            this.safeToken = safeToken;
            this.last = last;
            this.pending = rows;
        }
    }

    private final TokenRange range;
    private final ArrayDeque<Page> open = new ArrayDeque<>();
    private long committedToken;
    private long committedRows;
    private boolean done;
    private boolean failed;
    private boolean lastRead;

    /**
     * @param range         the range
     * @param position      the token after which rows remain to be copied ({@code range.start()} for a new range)
     * @param rowsCopied    rows copied in earlier runs
     */
    RangeCursor(TokenRange range, long position, long rowsCopied) {
        if (position < range.start() || position >= range.end()) {
            throw new IllegalArgumentException("position " + position + " outside " + range);
        }
        this.range = range;
        this.committedToken = position;
        this.committedRows = rowsCopied;
    }

    /**
     * Records a page read.
     *
     * @param rows      its rows, each to be acknowledged by {@link #written} or {@link #failed}
     * @param safeToken every row of the range at or before this token has been read by now
     * @param last      whether it is the range's last page (then {@code safeToken} is its end)
     * @return the page, to acknowledge its rows against
     */
    Page read(int rows, long safeToken, boolean last) {
        if (lastRead) {
            throw new IllegalStateException("a page read after the last page of " + range);
        }
        lastRead = last;
        Page page = new Page(rows, last ? range.end() : safeToken, last);
        open.addLast(page);
        advance();
        return page;
    }

    /**
     * @param page a page of this range
     * @param rows rows of it acknowledged by Cassandra
     */
    void written(Page page, int rows) {
        acknowledge(page, rows, false);
    }

    /**
     * @param page a page of this range
     * @param rows rows of it that could not be written (reported by the caller)
     */
    void failed(Page page, int rows) {
        acknowledge(page, rows, true);
    }

    private void acknowledge(Page page, int rows, boolean failure) {
        if (rows > page.pending) {
            throw new IllegalStateException(rows + " rows acknowledged of a page with " + page.pending + " pending");
        }
        page.pending -= rows;
        page.failed |= failure;
        advance();
    }

    private void advance() {
        while (!open.isEmpty() && open.peekFirst().pending == 0 && !failed) {
            Page page = open.pollFirst();
            if (page.failed) {
                failed = true;
                break;
            }
            committedToken = page.safeToken;
            committedRows += page.rows;
            done = page.last;
        }
    }

    /** @return the token up to which every row is acknowledged: where a rerun resumes */
    long committedToken() {
        return committedToken;
    }

    /** @return rows copied up to {@link #committedToken()}, earlier runs included */
    long committedRows() {
        return committedRows;
    }

    /** @return whether every row of the range is acknowledged (and none failed) */
    boolean done() {
        return done;
    }

    /** @return whether a row of it could not be written: its position stays before that row's page */
    boolean failed() {
        return failed;
    }

    /** @return whether the last page is read and every row read is acknowledged, written or failed */
    boolean settled() {
        return lastRead && open.stream().allMatch(p -> p.pending == 0);
    }

    /** @return pages read whose rows are not all acknowledged */
    int openPages() {
        return (int) open.stream().filter(p -> p.pending > 0).count();
    }

    /** @return the range */
    TokenRange range() {
        return range;
    }
}
