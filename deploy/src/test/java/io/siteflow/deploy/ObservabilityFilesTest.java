package io.siteflow.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Prometheus configuration, alert rules and the Grafana dashboard (promtool is not available here). */
class ObservabilityFilesTest {
    private static final Pattern METRIC = Pattern.compile("\\b((?:siteflow|kafka)_[a-z0-9_]+)\\b");
    private static final Pattern DURATION = Pattern.compile("[0-9]+[smhd]");

    private static List<JsonNode> rules() {
        List<JsonNode> out = new ArrayList<>();
        Yaml.yaml("observability/alert-rules.yml").get("groups").forEach(g -> g.get("rules").forEach(out::add));
        return out;
    }

    private static List<String> dashboardExpressions() {
        List<String> out = new ArrayList<>();
        Yaml.json("observability/grafana-dashboard.json").get("panels")
                .forEach(p -> p.get("targets").forEach(t -> out.add(t.get("expr").asText())));
        return out;
    }

    private static Set<String> metrics(List<String> expressions) {
        Set<String> out = new TreeSet<>();
        for (String e : expressions) {
            Matcher m = METRIC.matcher(e);
            while (m.find()) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    @Test
    void prometheusScrapesProcessorsAndAgentsAndLoadsTheRulesBesideIt() {
        JsonNode prom = Yaml.yaml("observability/prometheus.yml");

        assertThat(Yaml.strings(prom.get("rule_files"))).containsExactly("alert-rules.yml");
        assertThat(DeployFiles.path("observability/alert-rules.yml")).isRegularFile();
        List<String> jobs = new ArrayList<>();
        prom.get("scrape_configs").forEach(j -> {
            jobs.add(j.get("job_name").asText());
            assertThat(j.get("metrics_path").asText()).isEqualTo("/metrics");
            j.get("static_configs").forEach(sc -> assertThat(Yaml.strings(sc.get("targets")))
                    .isNotEmpty().allMatch(t -> t.matches("[A-Za-z0-9.-]+:[0-9]+")));
        });
        assertThat(jobs).containsExactly("siteflow-processor", "siteflow-agent");
    }

    @Test
    void everyRuleHasAlertExprForLabelsAndAnnotations() {
        List<JsonNode> rules = rules();

        assertThat(rules).allSatisfy(r -> {
            String name = r.path("alert").asText();
            assertThat(name).matches("Siteflow[A-Za-z]+");
            assertThat(r.path("expr").asText()).as(name).isNotBlank();
            assertThat(r.path("for").asText()).as(name).matches(DURATION);
            assertThat(r.path("labels").path("severity").asText()).as(name).isIn("info", "warning", "critical");
            assertThat(r.path("annotations").path("summary").asText()).as(name).isNotBlank();
            assertThat(r.path("annotations").path("description").asText()).as(name).isNotBlank();
            assertThat(Yaml.fieldNames(r)).as(name)
                    .containsExactlyInAnyOrder("alert", "expr", "for", "labels", "annotations");
        });
        assertThat(rules.stream().map(r -> r.get("alert").asText()).distinct()).hasSize(rules.size());
    }

    @Test
    void rulesCoverDropsFailVerdictsRttAndLagAtTheDesignThresholds() {
        List<JsonNode> rules = rules();
        String drops = expr(rules, "SiteflowAgentKernelDrops");

        assertThat(drops).contains("siteflow_agent_kernel_drops_total", "siteflow_agent_packets_total").endsWith("> 0.001\n");
        assertThat(expr(rules, "SiteflowVerdictFail")).contains("siteflow_processor_verdicts_total{verdict=\"FAIL\"}");
        assertThat(expr(rules, "SiteflowCrossSiteRttHigh")).isEqualTo("max by (server, remote_site) "
                + "(siteflow_processor_rtt_p95_seconds) > on (server, remote_site) max by (server, remote_site) "
                + "(siteflow_processor_rtt_limit_seconds)");
        assertThat(expr(rules, "SiteflowConsumerLag")).contains("kafka_consumer_fetch_manager_records_lag_max");
    }

    private static String expr(List<JsonNode> rules, String alert) {
        return rules.stream().filter(r -> r.get("alert").asText().equals(alert)).findFirst()
                .orElseThrow(() -> new AssertionError("no alert " + alert)).get("expr").asText();
    }

    @Test
    void everyDashboardPanelHasTheDatasourceAndTargets() {
        JsonNode dash = Yaml.json("observability/grafana-dashboard.json");
        Set<Integer> ids = new HashSet<>();

        assertThat(dash.get("templating").get("list")).anySatisfy(v -> {
            assertThat(v.get("name").asText()).isEqualTo("datasource");
            assertThat(v.get("type").asText()).isEqualTo("datasource");
            assertThat(v.get("query").asText()).isEqualTo("prometheus");
        });
        assertThat(dash.get("panels")).isNotEmpty().allSatisfy(p -> {
            String title = p.get("title").asText();
            assertThat(ids.add(p.get("id").asInt())).as("unique id of " + title).isTrue();
            assertThat(p.path("datasource").path("uid").asText()).as(title).isEqualTo("${datasource}");
            assertThat(p.path("datasource").path("type").asText()).as(title).isEqualTo("prometheus");
            assertThat(p.get("targets")).as(title).isNotEmpty().allSatisfy(t -> {
                assertThat(t.path("expr").asText()).as(title).isNotBlank();
                assertThat(t.path("refId").asText()).as(title).isNotBlank();
            });
        });
    }

    @Test
    void dashboardShowsVerdictsDbShareCategoriesRttDropsAndLag() {
        Set<String> used = metrics(dashboardExpressions());

        assertThat(used).contains("siteflow_processor_verdicts_total", "siteflow_processor_db_share",
                "siteflow_processor_bytes_total", "siteflow_processor_rtt_p95_seconds",
                "siteflow_agent_kernel_drops_total", "kafka_consumer_fetch_manager_records_lag_max");
    }

    @Test
    void everyMetricTheRulesAndDashboardUseIsDocumentedInOperations() {
        List<String> expressions = new ArrayList<>(dashboardExpressions());
        rules().forEach(r -> expressions.add(r.get("expr").asText()));
        String operations = DeployFiles.read("../docs/OPERATIONS.md");

        Set<String> used = metrics(expressions);
        // named in code style, with or without its labels: `name` or `name{label}`
        List<String> undocumented = used.stream()
                .filter(m -> !operations.contains("`" + m + "`") && !operations.contains("`" + m + "{")).toList();

        assertThat(used).isNotEmpty();
        assertThat(undocumented).as("metrics missing from docs/OPERATIONS.md").isEmpty();
    }
}
