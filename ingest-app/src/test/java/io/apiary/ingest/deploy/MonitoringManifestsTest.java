package io.apiary.ingest.deploy;

import static io.apiary.ingest.deploy.DeployFolder.DEPLOY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.openshift.api.model.monitoring.v1.PodMetricsEndpoint;
import io.fabric8.openshift.api.model.monitoring.v1.PodMonitor;
import io.fabric8.openshift.api.model.monitoring.v1.PrometheusRule;
import io.fabric8.openshift.api.model.monitoring.v1.Rule;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * deploy/components/monitoring (in {@code overlays/prod-operators}) against the Prometheus Operator's
 * API, PromQL and the rendered pipeline: the PodMonitor and PrometheusRule parse strictly into
 * fabric8's openshift-model-monitoring ({@link CustomKinds}); the PodMonitor selects the topology
 * and sink pods on their port {@code http} at {@code /metrics}, which the NetworkPolicy admits
 * Prometheus to; every alert has a {@code for}, a severity, a summary, a description and a
 * runbook whose file and heading exist; every alert and dashboard expression is valid PromQL
 * ({@link PromQl}); the dashboard is a ConfigMap for Grafana's sidecar with a stable name. That the
 * metric names exist in a real scrape is {@code MonitoringScrapeIT}'s part.
 */
class MonitoringManifestsTest {

    private static final String OVERLAY = "overlays/prod-operators";
    private static final Path REPOSITORY = DEPLOY.getParent();
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Set<String> SEVERITIES = Set.of("critical", "warning", "info");

    private static RenderedManifests rendered() {
        return RenderedManifests.render(DEPLOY.resolve(OVERLAY));
    }

    @Test
    void should_parse_the_pod_monitor_and_the_rules_against_the_operators_model() {
        RenderedManifests rendered = rendered();
        assertThat(rendered.all(PodMonitor.class)).hasSize(1);
        assertThat(rendered.all(PrometheusRule.class)).hasSize(1);
        assertThat(rendered.all(PodMonitor.class).get(0).getMetadata().getNamespace())
                .as("the PodMonitor in the pipeline's namespace (it selects pods of its own namespace)")
                .isEqualTo(rendered.find(io.fabric8.kubernetes.api.model.apps.Deployment.class, "apiary-ingest-sink")
                        .orElseThrow()
                        .getMetadata()
                        .getNamespace());
    }

    @Test
    void should_fail_naming_the_field_when_a_pod_monitor_has_one_the_operator_does_not_know() {
        String yaml = """
                apiVersion: monitoring.coreos.com/v1
                kind: PodMonitor
                metadata: {name: misspelt}
                spec:
                  selector: {matchLabels: {app: x}}
                  podMetricsEndpoints:
                    - port: http
                      intervall: 30s
                """;

        assertThatThrownBy(() -> StrictYaml.kubernetesObjects(yaml, "inline"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("intervall");
    }

    @Test
    void should_scrape_the_topology_and_the_sink_on_port_http_at_metrics_every_30s() {
        RenderedManifests rendered = rendered();
        PodMonitor monitor = rendered.all(PodMonitor.class).get(0);
        List<PodContainer> pipeline = rendered.containers().stream()
                .filter(PodContainer::runsPipeline)
                .toList();
        assertThat(pipeline).extracting(c -> c.workload().getKind()).contains("StatefulSet", "Deployment");

        SoftAssertions.assertSoftly(softly -> {
            for (PodContainer container : pipeline) {
                Map<String, String> labels = container.template().getMetadata().getLabels();
                softly.assertThat(selects(monitor, labels))
                        .as("%s: pod labels %s selected by the PodMonitor", container.where(), labels)
                        .isTrue();
                softly.assertThat(container.container().getPorts())
                        .as("%s: a container port named as the PodMonitor's", container.where())
                        .anyMatch(port -> "http".equals(port.getName()));
            }
            rendered.containers().stream()
                    .filter(c -> !c.runsPipeline())
                    .forEach(job -> softly.assertThat(selects(
                                    monitor, job.template().getMetadata().getLabels()))
                            .as("%s: a Job's pod, which serves no /metrics, is not scraped", job.where())
                            .isFalse());
            List<PodMetricsEndpoint> endpoints = monitor.getSpec().getPodMetricsEndpoints();
            softly.assertThat(endpoints).hasSize(1);
            softly.assertThat(endpoints.get(0).getPort()).isEqualTo("http");
            softly.assertThat(endpoints.get(0).getPath()).isEqualTo("/metrics");
            softly.assertThat(endpoints.get(0).getInterval()).isEqualTo("30s");
            softly.assertThat(monitor.getSpec().getJobLabel())
                    .as("job label: the rules filter on job=\"apiary-ingest\"")
                    .isEqualTo("app.kubernetes.io/name");
            softly.assertThat(monitor.getMetadata().getLabels()).containsKey("release");
        });
    }

    @Test
    void should_admit_prometheus_to_the_scraped_port_in_the_network_policy() {
        NetworkPolicy policy =
                rendered().find(NetworkPolicy.class, "apiary-ingest").orElseThrow();
        assertThat(policy.getSpec().getIngress())
                .as("an ingress rule from Prometheus pods in namespace monitoring to port http")
                .anySatisfy(rule -> {
                    assertThat(rule.getPorts())
                            .anyMatch(port -> "http".equals(port.getPort().getStrVal()));
                    NetworkPolicyPeer peer = rule.getFrom().get(0);
                    assertThat(peer.getNamespaceSelector().getMatchLabels())
                            .containsEntry("kubernetes.io/metadata.name", "monitoring");
                    assertThat(peer.getPodSelector().getMatchLabels())
                            .containsEntry("app.kubernetes.io/name", "prometheus");
                });
    }

    @Test
    void should_give_every_alert_a_duration_a_severity_a_summary_and_a_runbook_that_exists() {
        List<Rule> rules = MonitoringQueries.rules();
        assertThat(rules).hasSizeGreaterThanOrEqualTo(8);
        SoftAssertions.assertSoftly(softly -> {
            for (Rule rule : rules) {
                String alert = rule.getAlert();
                softly.assertThat(alert).as("every rule is an alert").isNotBlank();
                softly.assertThat(rule.getFor()).as("%s: for", alert).matches("[0-9]+[smh]");
                softly.assertThat(rule.getLabels())
                        .as("%s: severity", alert)
                        .extractingByKey("severity")
                        .isIn(SEVERITIES);
                softly.assertThat(rule.getAnnotations())
                        .as("%s: annotations", alert)
                        .containsKeys("summary", "description", "runbook_url");
                String runbook = rule.getAnnotations().getOrDefault("runbook_url", "");
                softly.assertThat(anchorExists(runbook))
                        .as("%s: runbook %s names a file of the repository and one of its headings", alert, runbook)
                        .isTrue();
            }
        });
    }

    @Test
    void should_parse_every_alert_and_dashboard_expression_as_promql() {
        List<String> expressions =
                new ArrayList<>(MonitoringQueries.alertExpressions().values());
        expressions.addAll(MonitoringQueries.dashboardExpressions());
        assertThat(expressions).hasSizeGreaterThan(20);

        List<PromQl.Result> invalid =
                PromQl.parse(expressions).stream().filter(r -> !r.valid()).toList();

        assertThat(invalid).as("expressions with PromQL syntax errors").isEmpty();
    }

    @Test
    void should_report_a_syntax_error_and_the_metric_names_when_parsing_promql() {
        List<PromQl.Result> results = PromQl.parse(List.of(
                "sum by (pod (rate(apiary_sink_rows_written_total[5m]))",
                "sum by (pod) (rate(apiary_sink_rows_written_total{job=\"a\"}[5m])) > 0 and up offset 5m",
                "rate(foo[5m]) >"));

        assertThat(results.get(0).valid()).as("missing parenthesis").isFalse();
        assertThat(results.get(1).valid()).isTrue();
        assertThat(results.get(1).metrics()).containsExactly("apiary_sink_rows_written_total", "up");
        assertThat(results.get(2).valid())
                .as("binary operator without its right side")
                .isFalse();
    }

    @Test
    void should_ship_the_dashboard_as_a_configmap_for_grafanas_sidecar() {
        ConfigMap map = rendered()
                .find(ConfigMap.class, "apiary-ingest-dashboard")
                .orElseThrow(() -> new AssertionError("no ConfigMap apiary-ingest-dashboard (stable name, no hash)"));
        assertThat(map.getMetadata().getLabels()).containsEntry("grafana_dashboard", "1");
        assertThat(map.getMetadata().getAnnotations()).containsKey("grafana_folder");
        assertThat(map.getData()).containsOnlyKeys("apiary-ingest-dashboard.json");
        JsonNode dashboard = JSON.readTree(map.getData().get("apiary-ingest-dashboard.json"));

        assertThat(dashboard.path("schemaVersion").asInt()).isBetween(36, 41);
        assertThat(dashboard.path("uid").asString()).isNotBlank();
        List<JsonNode> variables = new ArrayList<>();
        dashboard.path("templating").path("list").forEach(variables::add);
        assertThat(variables)
                .as("a datasource variable of type prometheus")
                .anyMatch(v -> "datasource".equals(v.path("name").asString())
                        && "datasource".equals(v.path("type").asString())
                        && "prometheus".equals(v.path("query").asString()));
        List<String> uids = new ArrayList<>();
        collectDatasources(dashboard.path("panels"), uids);
        assertThat(uids).as("panels' and targets' datasource uids").isNotEmpty().containsOnly("${datasource}");
    }

    private static void collectDatasources(JsonNode panels, List<String> out) {
        for (JsonNode panel : panels) {
            if (!"row".equals(panel.path("type").asString())) {
                out.add(panel.path("datasource").path("uid").asString());
                panel.path("targets")
                        .forEach(t -> out.add(t.path("datasource").path("uid").asString()));
            }
            collectDatasources(panel.path("panels"), out);
        }
    }

    private static boolean selects(PodMonitor monitor, Map<String, String> labels) {
        var selector = monitor.getSpec().getSelector();
        if (selector.getMatchLabels() != null
                && !selector.getMatchLabels().entrySet().stream()
                        .allMatch(e -> e.getValue().equals(labels.get(e.getKey())))) {
            return false;
        }
        List<LabelSelectorRequirement> expressions =
                selector.getMatchExpressions() == null ? List.of() : selector.getMatchExpressions();
        for (LabelSelectorRequirement requirement : expressions) {
            String value = labels.get(requirement.getKey());
            boolean in = value != null && requirement.getValues().contains(value);
            boolean ok = switch (requirement.getOperator()) {
                case "In" -> in;
                case "NotIn" -> !in;
                case "Exists" -> value != null;
                case "DoesNotExist" -> value == null;
                default -> throw new AssertionError("unknown selector operator " + requirement.getOperator());
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** @return whether {@code file#anchor} (relative to the repository) is a file with that heading */
    private static boolean anchorExists(String runbook) {
        int hash = runbook.indexOf('#');
        if (hash < 1) {
            return false;
        }
        Path file = REPOSITORY.resolve(runbook.substring(0, hash));
        if (!Files.isRegularFile(file)) {
            return false;
        }
        Set<String> anchors = new TreeSet<>();
        Matcher heading = Pattern.compile("(?m)^#{1,6} (.+)$").matcher(DeployFolder.read(file));
        while (heading.find()) {
            anchors.add(slug(heading.group(1)));
        }
        return anchors.contains(runbook.substring(hash + 1));
    }

    /** GitHub's heading anchor: lower case, punctuation dropped, spaces as hyphens. */
    static String slug(String heading) {
        return heading.strip()
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N} _-]", "")
                .replace(' ', '-');
    }
}
