package io.apiary.ingest.service;

import java.util.Objects;

/**
 * One component's answer to a health check.
 *
 * @param component {@code topology}, {@code sink} or {@code process}, not null
 * @param up        whether the component passes the check
 * @param detail    why, in words an operator can act on, not null
 */
public record ComponentHealth(String component, boolean up, String detail) {

    /** Checks the values. */
    public ComponentHealth {
        Objects.requireNonNull(component, "component");
        Objects.requireNonNull(detail, "detail");
    }
}
