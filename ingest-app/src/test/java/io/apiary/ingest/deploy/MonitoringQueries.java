package io.apiary.ingest.deploy;

import io.fabric8.openshift.api.model.monitoring.v1.PrometheusRule;
import io.fabric8.openshift.api.model.monitoring.v1.Rule;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The PromQL of deploy/components/monitoring: the alert expressions of {@code prometheusrule.yaml}
 * and the panel targets of {@code apiary-ingest-dashboard.json}, and the metric names they select
 * (from Prometheus's own grammar, {@link PromQl}). For MonitoringManifestsTest and the scrape IT.
 * Stateless and thread-safe.
 */
public final class MonitoringQueries {

    /** The component's folder. */
    static final Path COMPONENT = DeployFolder.DEPLOY.resolve("components/monitoring");

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern GRAFANA_INTERVALS = Pattern.compile("\\$__(rate_interval|interval|range)");

    private MonitoringQueries() {}

    /** @return every alert expression of the rule file, by alert name, in file order; never null */
    public static Map<String, String> alertExpressions() {
        Map<String, String> out = new LinkedHashMap<>();
        for (Rule rule : rules()) {
            out.put(rule.getAlert(), rule.getExpr().getStrVal());
        }
        return out;
    }

    /** @return every panel target's expression of the dashboard (rows' panels too), Grafana's interval variables as 5m */
    public static List<String> dashboardExpressions() {
        List<String> out = new ArrayList<>();
        collectTargets(dashboard().path("panels"), out);
        return out;
    }

    /**
     * @return the metric names every alert and dashboard expression selects, sorted
     * @throws org.opentest4j.TestAbortedException without npm or node (see {@link PromQl})
     * @throws AssertionError if an expression does not parse
     */
    public static Set<String> metricNames() {
        List<String> expressions = new ArrayList<>(alertExpressions().values());
        expressions.addAll(dashboardExpressions());
        Set<String> names = new TreeSet<>();
        for (PromQl.Result result : PromQl.parse(expressions)) {
            if (!result.valid()) {
                throw new AssertionError("not valid PromQL: " + result.expr() + " " + result.errors());
            }
            names.addAll(result.metrics());
        }
        return names;
    }

    /** @return the dashboard as a JSON tree */
    static JsonNode dashboard() {
        return JSON.readTree(DeployFolder.read(COMPONENT.resolve("apiary-ingest-dashboard.json")));
    }

    /** @return the rule file, parsed strictly */
    static PrometheusRule ruleFile() {
        return (PrometheusRule) StrictYaml.kubernetesObjects(
                        DeployFolder.read(COMPONENT.resolve("prometheusrule.yaml")),
                        "deploy/components/monitoring/prometheusrule.yaml")
                .get(0);
    }

    /** @return the rules of every group of the rule file */
    static List<Rule> rules() {
        return ruleFile().getSpec().getGroups().stream()
                .flatMap(group -> group.getRules().stream())
                .toList();
    }

    private static void collectTargets(JsonNode panels, List<String> out) {
        for (JsonNode panel : panels) {
            for (JsonNode target : panel.path("targets")) {
                out.add(GRAFANA_INTERVALS
                        .matcher(target.path("expr").asString())
                        .replaceAll("5m"));
            }
            collectTargets(panel.path("panels"), out);
        }
    }
}
