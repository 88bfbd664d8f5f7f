package io.apiary.ingest.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The answer of {@code /health/live} or {@code /health/ready}: up when every component is.
 * Immutable and thread-safe.
 *
 * @param components each running component's answer, not null, not empty
 */
public record HealthReport(List<ComponentHealth> components) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Copies the list. */
    public HealthReport {
        components = List.copyOf(components);
    }

    /** @return true when every component is up */
    public boolean up() {
        return components.stream().allMatch(ComponentHealth::up);
    }

    /**
     * @return the report as JSON, e.g.
     *         {@code {"status":"DOWN","components":{"sink":{"status":"DOWN","detail":"no Cassandra node connected"}}}}
     */
    public String toJson() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", up() ? "UP" : "DOWN");
        Map<String, Object> byName = new LinkedHashMap<>();
        for (ComponentHealth component : components) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("status", component.up() ? "UP" : "DOWN");
            entry.put("detail", component.detail());
            byName.put(component.component(), entry);
        }
        body.put("components", byName);
        try {
            return JSON.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Cannot write a health report as JSON", e);
        }
    }
}
