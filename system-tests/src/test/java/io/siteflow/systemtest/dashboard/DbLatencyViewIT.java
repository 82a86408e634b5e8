package io.siteflow.systemtest.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.siteflow.agent.app.FileReplay;
import io.siteflow.agent.flow.FlowSink;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.cli.CommandRun;
import io.siteflow.cli.DemoCommand;
import io.siteflow.processor.http.Browser;
import io.siteflow.rules.audit.AuditReport;
import io.siteflow.rules.audit.OfflineAudit;
import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.rules.verdict.DbCallSummary;
import io.siteflow.rules.verdict.DbSiteComparison;
import io.siteflow.rules.verdict.Verdict;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

/**
 * The "DB latency" view in a real headless Chromium on the real pipeline: the demo's capture (the stretched
 * cluster seen at region 2's edge and on wls1's own interface, here 90 s of it) replayed as the demo's agent replays
 * it (no {@code -F}) into an embedded broker and a processor. The view shows wls4's DB call figures exactly as
 * {@code siteflow audit} computes them for the same file, its call-time histogram holds every call, its what-if for
 * moving wls4 to region1 shows the numbers {@code siteflow whatif --move wls4=region1} prints for the same capture,
 * and the "moved to region1" bar takes the service time measured on region1's own server wls1 (the audit's
 * {@code dbSites} local side) instead of wls4's. Screenshots at 1400 and 800 px
 * ({@code dashboard-dblatency-WIDTH.png}) go to target/screenshots, or to docs/images with
 * {@code ./siteflow screenshots} ({@link Browser#readmeImage}).
 */
class DbLatencyViewIT {
    private static final String WLS4 = "10.2.0.21";

    @TempDir
    Path dir;

    @Test
    void showsWls4sCallTimesAndTheWhatIfTheCliPrints() throws Exception {
        Browser.assumeInstalled();
        Path root = Path.of(System.getProperty("siteflow.root", "../..")).toAbsolutePath().normalize();
        Path sites = root.resolve("deploy/conf/sites.yaml");
        Path capture = dir.resolve("stretched.pcap");
        DemoCommand.sampleScenario(Duration.ofSeconds(90)).write(capture);
        AuditReport report = audit(capture, sites);
        DbCallSummary calls = report.verdicts().stream().filter(v -> v.server().equals(WLS4))
                .map(Verdict::dbCalls).findFirst().orElseThrow();
        assertThat(calls.calls()).isPositive();
        DbSiteComparison db1 = report.dbSites().get(0);
        assertThat(db1.localServers()).isEqualTo(1);
        long localService = db1.local().serviceP50();
        assertThat(localService).isNotEqualTo(calls.serviceP50());
        CommandRun whatIf = CommandRun.of("whatif", "--sites", sites.toString(), "--move", "wls4=region1",
                capture.toString());
        assertThat(whatIf.exitCode()).as(whatIf.err()).isZero();
        Map<String, String> printed = whatIfFigures(whatIf.out());

        try (ReplayedPipeline pipeline = ReplayedPipeline.start(dir, sites, capture, "region2-edge", new String[0])) {
            try (Browser browser = Browser.start(1400, 1000)) {
                browser.driver.get(pipeline.base() + "#dblatency");
                Map<String, String> expected = figures(calls);
                await("wls4's figures").atMost(Duration.ofSeconds(90)).ignoreExceptions().untilAsserted(() -> {
                    new Select(browser.driver.findElement(By.id("db-server"))).selectByValue(WLS4 + "|region1");
                    assertThat(shown(browser, "db-figures")).isEqualTo(expected);
                });
                await("wls4's what-if").atMost(Duration.ofSeconds(90)).ignoreExceptions().untilAsserted(() ->
                        assertThat(shown(browser, "db-whatif")).isEqualTo(printed));
                await("the moved bar's service time").atMost(Duration.ofSeconds(30)).ignoreExceptions()
                        .untilAsserted(() -> assertThat(browser.driver.executeScript("return echarts.getInstanceByDom("
                                + "document.getElementById('db-compare')).getOption().series[1].data"
                                + ".map((ms) => Math.round(ms * 1000));")).isEqualTo(
                                java.util.List.of(calls.serviceP50(), localService)));
                assertThat(browser.driver.findElement(By.id("db-whatif-title")).getText())
                        .isEqualTo("What if wls4 (10.2.0.21) moved from region2 to region1");
                assertThat(browser.driver.findElement(By.id("db-links")).getText())
                        .contains("region1 ↔ region2: " + linkOf(whatIf.out()) + " km of fibre");
                Object charted = browser.driver.executeScript("return echarts.getInstanceByDom("
                        + "document.getElementById('db-histogram')).getOption().series[0].data"
                        + ".reduce((s, b) => s + b[2], 0);");
                assertThat(((Number) charted).longValue()).isEqualTo(calls.calls());
                for (int width : new int[] {1400, 800}) {
                    DashboardTrafficWidths.resize(browser, width, 1800); // tall enough for the what-if
                    assertThat(browser.driver.executeScript(
                            "return document.documentElement.scrollWidth <= window.innerWidth;"))
                            .as("no sideways scroll at " + width + " px").isEqualTo(true);
                    browser.screenshotTo(Browser.readmeImage("dashboard-dblatency-" + width));
                }
            }
        }
    }

    /** The audit of the capture, as {@code siteflow audit} computes it. */
    private static AuditReport audit(Path capture, Path sites) throws Exception {
        OfflineAudit audit = new OfflineAudit(SiteModelLoader.load(sites).orThrow(), 60_000);
        FileReplay.run(capture, "audit", FlowTableConfig.DEFAULTS, FlowSink.to(audit::accept));
        return audit.report("stretched.pcap", 0, 0);
    }

    /** The figures the view shows for these calls, by {@code data-figure}. */
    private static Map<String, String> figures(DbCallSummary d) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("callsPerSecond", d.callsPerSecond().setScale(2, RoundingMode.UNNECESSARY).toPlainString());
        m.put("calls", String.format(Locale.ROOT, "%,d", d.calls()));
        m.put("callP50", ms(d.p50()));
        m.put("callP95", ms(d.p95()));
        m.put("callP99", ms(d.p99()));
        m.put("rtt", ms(d.rttMicros()));
        m.put("networkShare", d.networkShare().movePointRight(2).setScale(2, RoundingMode.UNNECESSARY)
                .toPlainString() + "%");
        m.put("serviceP50", ms(d.serviceP50()));
        m.put("connections", d.connections().median() + " / " + d.connections().max());
        return m;
    }

    private static String ms(long micros) {
        return String.format(Locale.ROOT, "%.3f ms", micros / 1000.0);
    }

    /** The numbers of {@code siteflow whatif}'s text, as the view shows them, by {@code data-figure}. */
    static Map<String, String> whatIfFigures(String text) {
        Map<String, String> m = new LinkedHashMap<>();
        Matcher bytes = find(text, "  cross-site bytes: (\\d+) now, (\\d+) after\n");
        m.put("crossBefore", bytes.group(1));
        m.put("crossAfter", bytes.group(2));
        m.put("becomeLocal", find(text, "  (\\d+) flows would become local").group(1));
        m.put("becomeRemote", find(text, "  (\\d+) flows would become cross-site").group(1));
        Matcher calls = find(text, "  DB calls: (\\d+) would stop and (\\d+) would start paying ([0-9.]+ ms) of RTT"
                + " \\(over (\\d+) s\\)\n");
        m.put("stopPaying", calls.group(1));
        m.put("startPaying", calls.group(2));
        m.put("rttSaved", calls.group(3));
        m.put("seconds", calls.group(4) + " s");
        m.put("perSecond", find(text, "  time per second of work: ([0-9.]+ ms (saved|added))\n").group(1));
        assertThat(Long.parseLong(m.get("stopPaying"))).as(text).isPositive();
        return m;
    }

    /** {@code 6.500 ms, at most 650} of the CLI's region1 ↔ region2 link. */
    private static String linkOf(String text) {
        return find(text, "  region1 <-> region2: ([0-9.]+ ms, at most \\d+)").group(1);
    }

    private static Matcher find(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertThat(m.find()).as(regex + " in\n" + text).isTrue();
        return m;
    }

    /** The figures of a {@code <dl>}: each {@code dd}'s {@code data-figure} → its text. */
    private static Map<String, String> shown(Browser browser, String id) {
        Map<String, String> m = new LinkedHashMap<>();
        for (WebElement dd : browser.driver.findElements(By.cssSelector("#" + id + " dd"))) {
            m.put(dd.getDomAttribute("data-figure"), dd.getText());
        }
        return m;
    }

    /** Window sizing as DashboardTrafficIT does it: the inside of the window is {@code width} × {@code height}. */
    static final class DashboardTrafficWidths {
        private DashboardTrafficWidths() {
        }

        static void resize(Browser browser, int width, int height) {
            var w = browser.driver.manage().window();
            w.setSize(new org.openqa.selenium.Dimension(width, height));
            long inner = (Long) browser.driver.executeScript("return window.innerWidth;");
            w.setSize(new org.openqa.selenium.Dimension(width + (int) (width - inner), height));
            browser.waiting().until(x -> Long.valueOf(width).equals(
                    browser.driver.executeScript("return window.innerWidth;")));
        }
    }
}
