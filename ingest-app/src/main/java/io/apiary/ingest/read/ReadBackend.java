package io.apiary.ingest.read;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * What the reader asks of Cassandra: requests for statements, and whether a table exists. The
 * driver's session in production ({@link SessionBackend}); a stand-in in unit tests, so the plan of
 * requests is tested without a database. Implementations are thread-safe.
 */
interface ReadBackend {

    /**
     * Prepares a statement now (so a missing table is reported before anything is read) and
     * returns how to send it.
     *
     * @param table    the table the statement reads, for messages, not null
     * @param cql      the statement, with bind markers, not null
     * @param values   the values of its markers, in order, not null
     * @param pageSize rows per page, at least 1
     * @return sends the request and returns its first page; each call sends it again
     * @throws IllegalArgumentException if the table cannot be read (missing keyspace or table),
     *                                  with a hint
     */
    Supplier<CompletionStage<AsyncResultSet>> request(String table, String cql, Object[] values, int pageSize);

    /**
     * @param table a table name, not null
     * @return whether the table exists in the reader's keyspace; answered without a request when
     *         the driver's schema metadata knows the keyspace
     */
    boolean tableExists(String table);
}
