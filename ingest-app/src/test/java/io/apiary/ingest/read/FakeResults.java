package io.apiary.ingest.read;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.function.Supplier;

/**
 * Stand-ins for the driver's result rows and pages, for unit tests of our own read logic (the
 * driver is not under test).
 */
final class FakeResults {

    private FakeResults() {}

    /**
     * @param values the row's column values, in the statement's select order
     * @return a row whose {@code getString(i)}, {@code getInstant(i)}, {@code getDouble(i)}, ...,
     *         {@code get(i, type)} return {@code values[i]}, and {@code isNull(i)} whether it is null
     */
    static Row row(Object... values) {
        return (Row) Proxy.newProxyInstance(
                FakeResults.class.getClassLoader(), new Class<?>[] {Row.class}, (proxy, method, args) -> {
                    if (args != null && args.length == 1 && args[0] instanceof Integer i) {
                        return method.getName().equals("isNull") ? values[i] == null : values[i];
                    }
                    if (method.getName().equals("get") && args.length == 2 && args[0] instanceof Integer i) {
                        return ((Class<?>) args[1]).cast(values[i]); // get(i, type)
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    /** @return the columns of hive_telemetry_v2's select list, {@link TableLayout#TELEMETRY}'s order */
    static Row telemetryRow(TelemetryRow r) {
        return row(r.hiveId(), r.sensorType(), r.sensorId(), r.readingTime(), r.value(), r.unit(), r.gatewayId());
    }

    /** @return the columns of legacy hive_telemetry's select list (no sensor id) */
    static Row legacyTelemetryRow(TelemetryRow r) {
        return row(r.hiveId(), r.sensorType(), r.readingTime(), r.value(), r.unit(), r.gatewayId());
    }

    /** @return the columns of agent_alerts_v2's select list */
    static Row alertRow(AlertRow r) {
        return row(r.agentId(), r.alertTime(), r.alertId(), r.hiveId(), r.severity(), r.alertType(), r.message());
    }

    /** @return the columns of legacy agent_alerts's select list (no alert id) */
    static Row legacyAlertRow(AlertRow r) {
        return row(r.agentId(), r.alertTime(), r.hiveId(), r.severity(), r.alertType(), r.message());
    }

    /**
     * @param page      this page's rows
     * @param more      whether more pages follow
     * @param nextPage  the next page, asked for by {@code fetchNextPage}
     * @return a page of a result
     */
    static AsyncResultSet page(List<Row> page, boolean more, Supplier<Object> nextPage) {
        return (AsyncResultSet) Proxy.newProxyInstance(
                FakeResults.class.getClassLoader(),
                new Class<?>[] {AsyncResultSet.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "currentPage" -> page;
                    case "hasMorePages" -> more;
                    case "fetchNextPage" -> nextPage.get();
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
