package io.siteflow.systemtest.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.siteflow.agent.app.FileReplay;
import io.siteflow.agent.flow.FlowSink;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.model.Cidr;
import io.siteflow.model.FlowRecord;
import io.siteflow.processor.http.Browser;
import io.siteflow.rules.audit.AuditReport;
import io.siteflow.rules.audit.OfflineAudit;
import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.rules.verdict.Verdict;
import io.siteflow.synth.CapturePoint;
import io.siteflow.synth.ScenarioTruth;
import io.siteflow.synth.StretchedClusterScenario;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.support.ui.Select;

/**
 * The dashboard in a real headless Chromium on the real pipeline: embedded broker, processor, and an agent
 * (id {@code <script>alert(1)</script>}) replaying a synthesised stretched-cluster capture. The verdict cards
 * show the share and verdict that {@code siteflow audit} gives for the same file, the per-address chart has
 * a bar per remote host, the FAIL window's alert appears, and the agent's script-like id is shown as text.
 * The talkers show one row per host pair and category whose bytes are the capture's truth, to the byte in the
 * API and within the page's rounding on the page.
 */
class DashboardPipelineIT {
    private static final String AGENT = "<script>alert(1)</script>";

    @TempDir
    Path dir;

    @Test
    void dashboardShowsWhatTheAuditSaysForAReplayedCapture() throws Exception {
        Browser.assumeInstalled();
        Path root = Path.of(System.getProperty("siteflow.root", "../..")).toAbsolutePath().normalize();
        Path sites = root.resolve("deploy/conf/sites.yaml");
        Path capture = dir.resolve("stretched.pcap");
        ScenarioTruth truth = StretchedClusterScenario.builder().duration(Duration.ofSeconds(90))
                .capturePoint(CapturePoint.regionEdge("region2", 75_000)).build().write(capture);
        Map<String, Verdict> expected = audit(capture, sites);

        try (ReplayedPipeline pipeline = ReplayedPipeline.start(dir, sites, capture, AGENT)) {
            try (Browser browser = Browser.start(1600, 1000)) {
                String base = pipeline.base();
                browser.driver.get(base);
                for (String host : List.of("wls3", "wls4")) {
                    Verdict v = expected.get(host);
                    String card = "article.card[data-pair='" + v.server() + " " + v.remoteSite() + "']";
                    String share = percent(v.dbShare());
                    await(host + " card").atMost(Duration.ofSeconds(90)).ignoreExceptions()
                            .untilAsserted(() -> assertThat(browser.driver.findElements(By.cssSelector("article.card"))
                                    .stream().map(e -> e.getDomAttribute("data-pair") + " " + e.findElement(
                                            By.className("share")).getText()).toList())
                                    .contains(v.server() + " " + v.remoteSite() + " " + share));
                    assertThat(browser.driver.findElement(By.cssSelector(card + " .verdict")).getText())
                            .isEqualTo(v.verdict().name());
                }
                browser.screenshot("pipeline-verdicts");

                browser.driver.get(base + "#traffic");
                // the first server in the list (wls3) is shown: a row and a bar per remote address, named from the model
                browser.waiting().until(d -> d.findElements(By.cssSelector("#traffic-addresses tbody tr")).size()
                        == expected.get("wls3").addresses().size());
                List<String> names = browser.driver.findElements(By.cssSelector("#traffic-addresses tbody td:first-child"))
                        .stream().map(e -> e.getText()).toList();
                assertThat(names).startsWith("db1").contains("wls1", "wls2", "admin1");
                browser.screenshot("pipeline-traffic");

                browser.driver.get(base + "#alerts");
                browser.waiting().until(d -> d.findElements(By.cssSelector("#alerts-list li .message")).stream()
                        .anyMatch(e -> e.getText().startsWith("wls4 (10.2.0.21) towards region1: FAIL, DB share")));
                browser.screenshot("pipeline-alerts");

                talkersAreTheTruthPerCategory(browser, base, truth, expected.get("wls4").server());

                browser.driver.get(base + "#agents");
                browser.waiting().until(d -> d.findElement(By.id("agents-table")).getText().contains(AGENT));
                assertThatThrownBy(() -> browser.driver.switchTo().alert()).isInstanceOf(NoAlertPresentException.class);
                browser.screenshot("pipeline-agents");
            }
        }
    }

    private static Map<String, Verdict> audit(Path capture, Path sites) throws Exception {
        OfflineAudit audit = new OfflineAudit(SiteModelLoader.load(sites).orThrow(), 60_000);
        FileReplay.run(capture, "audit", FlowTableConfig.DEFAULTS, new FlowSink() {
            @Override
            public void accept(FlowRecord r) {
                audit.accept(r);
            }

            @Override
            public void close() {
            }
        });
        AuditReport report = audit.report("stretched.pcap", 0, 0);
        return Map.of("wls3", find(report, "wls3"), "wls4", find(report, "wls4"));
    }

    /**
     * For a server, each talker row (remote host, category) of the API holds the capture's bytes of that host
     * and category, and the page shows the same cumulative bytes (read back from "21.1 MB", within its rounding).
     */
    private static void talkersAreTheTruthPerCategory(Browser browser, String base, ScenarioTruth truth, String server)
            throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(base + "api/talkers?limit=100000")).build(), HttpResponse.BodyHandlers.ofString());
        Map<String, Long> api = new TreeMap<>();
        for (JsonNode row : new ObjectMapper().readTree(r.body())) {
            if (row.get("local").asText().equals(server)) {
                api.put(row.get("remote").asText() + " " + row.get("category").asText(),
                        row.get("outTotal").asLong() + row.get("inTotal").asLong());
            }
        }
        Map<String, Long> sent = new TreeMap<>();
        truth.totals().stream().filter(t -> t.server().equals(server) && !truth.region(t.remote()).equals(
                truth.region(server))).forEach(t -> sent.merge(t.remote() + " " + t.category().name(), t.bytes(), Long::sum));
        assertThat(api).isEqualTo(sent);

        browser.driver.get(base + "#talkers");
        new Select(browser.driver.findElement(By.cssSelector("#talkers-form select[name=limit]"))).selectByVisibleText("500");
        browser.driver.findElement(By.cssSelector("#talkers-form input[name=text]")).sendKeys(server);
        browser.waiting().until(d -> d.findElements(By.cssSelector("#talkers-table tbody tr")).size() == api.size());
        for (Map.Entry<String, Long> e : api.entrySet()) {
            String[] rc = e.getKey().split(" ");
            List<String> cells = browser.waiting().until(d -> talkerCells(browser).stream()
                    .filter(c -> c.get(0).contains("(" + server + ")") && c.get(1).contains(rc[0])
                            && c.get(2).equals(rc[1])).findFirst().orElse(null));
            Matcher m = Pattern.compile("([0-9.]+) (B|kB|MB|GB)").matcher(cells.get(9));
            assertThat(m.matches()).as(cells.get(9)).isTrue();
            double unit = Map.of("B", 1.0, "kB", 1e3, "MB", 1e6, "GB", 1e9).get(m.group(2));
            assertThat(Double.parseDouble(m.group(1)) * unit).as(e.getKey())
                    .isCloseTo(e.getValue(), org.assertj.core.api.Assertions.within(unit * 0.05 + 0.5));
        }
        browser.screenshot("pipeline-talkers");
    }

    /**
     * The talkers table's cells, read in one script: the table is drawn again every 2 s, and reading it cell by
     * cell through the driver on a loaded machine outlasted that (every read stale until the wait gave up).
     */
    @SuppressWarnings("unchecked")
    static List<List<String>> talkerCells(Browser browser) {
        return (List<List<String>>) browser.driver.executeScript("return [...document.querySelectorAll("
                + "'#talkers-table tbody tr')].map((tr) => [...tr.cells].map((td) => td.innerText.trim()));");
    }

    private static Verdict find(AuditReport r, String name) {
        return r.verdicts().stream().filter(v -> v.name().equals(name)).findFirst().orElseThrow();
    }

    private static String percent(BigDecimal share) {
        return share.movePointRight(2).setScale(2, RoundingMode.DOWN).toPlainString() + "%";
    }
}
