package io.apiary.ingest.serde;

/**
 * A schema registry answered with an error, or could not be reached.
 *
 * <p>{@link #unavailable()} tells the two apart: a registry that cannot be reached, times out or
 * answers 5xx is a fault of the moment (the record is fine; retry later), while 4xx answers are
 * about the request (an unknown schema id, an incompatible schema, a missing subject).
 * Immutable.
 */
public class SchemaRegistryException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Confluent's error code for an unknown subject. */
    public static final int SUBJECT_NOT_FOUND = 40401;
    /** Confluent's error code for an unknown schema (by id, or under a subject). */
    public static final int SCHEMA_NOT_FOUND = 40403;

    private final int status;
    private final int errorCode;
    private final boolean misrouted;

    /**
     * @param message   what was asked and what the registry said; never a credential
     * @param status    HTTP status, or 0 when no answer came
     * @param errorCode the registry's {@code error_code}, or 0 when absent
     * @param cause     the I/O failure, or null
     */
    public SchemaRegistryException(String message, int status, int errorCode, Throwable cause) {
        this(message, status, errorCode, false, cause);
    }

    /**
     * @param message   what was asked and what answered; never a credential
     * @param status    HTTP status, or 0 when no answer came
     * @param errorCode the registry's {@code error_code}, or 0 when absent
     * @param misrouted whether what answered is not a registry speaking Confluent's API (see
     *                  {@link #misrouted()})
     * @param cause     the I/O failure, or null
     */
    public SchemaRegistryException(String message, int status, int errorCode, boolean misrouted, Throwable cause) {
        super(message, cause);
        this.status = status;
        this.errorCode = errorCode;
        this.misrouted = misrouted;
    }

    /**
     * @return whether the answer did not come from a registry speaking Confluent's API: a redirect
     *         (3xx), a 404 without one of its 404xx error codes (a wrong path, a proxy), or a 2xx
     *         whose body is not JSON (a login or error page). The configuration is wrong, not the
     *         record: {@link #unavailable()} is true, {@link #serverUnavailable()} false
     */
    public boolean misrouted() {
        return misrouted;
    }

    /** @return the HTTP status, or 0 when the registry did not answer */
    public int status() {
        return status;
    }

    /** @return the registry's {@code error_code} (e.g. {@value #SCHEMA_NOT_FOUND}), or 0 */
    public int errorCode() {
        return errorCode;
    }

    /**
     * @return whether the registry could not be reached, answered 5xx, refused the credentials
     *         (401, 403: an expired or revoked credential is the deployment's fault, not the
     *         record's), asked to slow down (408, 429) or something else answered ({@link
     *         #misrouted()}): try again later, never dead-letter
     */
    public boolean unavailable() {
        return misrouted
                || status == 0
                || status >= 500
                || status == 401
                || status == 403
                || status == 408
                || status == 429;
    }

    /**
     * @return whether the registry could not serve the request at all: no answer (refused, reset,
     *         timed out), 5xx, 408 or 429, which waiting may mend. Unlike {@link #unavailable()},
     *         not a refused credential (401, 403): a start that meets one stops with the reason
     */
    public boolean serverUnavailable() {
        return !misrouted && (status == 0 || status >= 500 || status == 408 || status == 429);
    }

    /**
     * @param failure an exception, or null
     * @return whether it, or one of its causes, is a registry found unavailable: a fault of the
     *         moment, never a reason to dead-letter the record being read or written
     */
    public static boolean unavailableIn(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SchemaRegistryException e && e.unavailable()) {
                return true;
            }
        }
        return false;
    }

    /**
     * @return whether the registry said a subject, version or schema is not there: 404 with one
     *         of Confluent's 404xx error codes. A bare 404 is a wrong URL or path (e.g. an
     *         Apicurio URL without {@code /apis/ccompat/v6}), an error, never "absent"
     */
    public boolean notFound() {
        return status == 404 && errorCode / 100 == 404;
    }
}
