package io.apiary.ingest.tablecopy;

/**
 * A copy or verification that cannot be started as asked: a table that does not exist, a layout
 * the command does not know, a pair of layouts it cannot map, a table copied onto itself. The
 * command line exits 2 with its message (a usage error). Immutable.
 */
public final class CopyRefused extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** @param message what is wrong and what to do, for the operator */
    public CopyRefused(String message) {
        super(message);
    }
}
