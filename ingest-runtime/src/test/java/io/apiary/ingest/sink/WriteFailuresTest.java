package io.apiary.ingest.sink;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.NoNodeAvailableException;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.UnauthorizedException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.WriteType;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class WriteFailuresTest {

    private static final ConsistencyLevel QUORUM = DefaultConsistencyLevel.LOCAL_QUORUM;

    @Test
    void should_retry_timeouts_unavailability_and_missing_nodes() {
        assertThat(WriteFailures.retryable(new WriteTimeoutException(null, QUORUM, 1, 2, WriteType.BATCH)))
                .isTrue();
        assertThat(WriteFailures.retryable(new UnavailableException(null, QUORUM, 2, 1)))
                .isTrue();
        assertThat(WriteFailures.retryable(new DriverTimeoutException("timed out")))
                .isTrue();
        assertThat(WriteFailures.retryable(new CompletionException(new NoNodeAvailableException())))
                .isTrue();
    }

    @Test
    void should_not_retry_a_statement_the_server_refuses_as_invalid() {
        assertThat(WriteFailures.retryable(new InvalidQueryException(null, "Key may not be empty")))
                .isFalse();
        assertThat(WriteFailures.cause(new CompletionException(new InvalidQueryException(null, "x"))))
                .isEqualTo("InvalidQueryException");
    }

    @Test
    void should_retry_an_authorization_failure_rather_than_dead_letter_every_row() {
        assertThat(WriteFailures.retryable(new UnauthorizedException(null, "no MODIFY permission")))
                .isTrue();
    }
}
