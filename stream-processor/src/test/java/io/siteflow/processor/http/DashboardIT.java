package io.siteflow.processor.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.siteflow.processor.query.RulesInfo;
import io.siteflow.processor.topology.Alert;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

/** The dashboard in a real headless Chromium against the API server with the fixture data. */
class DashboardIT {
    static final ObjectMapper JSON = new ObjectMapper();
    static StaticQueries queries;
    static ApiServer server;
    static Browser browser;

    @BeforeAll
    static void start() throws Exception {
        Browser.assumeInstalled();
        queries = FakeQueries.create(System.currentTimeMillis(), true);
        server = new ApiServer(new ApiServer.Settings("127.0.0.1", 0, Optional.empty(), 200), queries, () -> "").start();
        browser = Browser.start(1600, 1000);
    }

    @AfterAll
    static void stop() throws Exception {
        if (browser != null) {
            browser.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @BeforeEach
    void open() {
        browser.driver.get(server.url() + "/");
        browser.waiting().until(d -> "true".equals(d.findElement(By.tagName("body")).getDomAttribute("data-ready")));
    }

    WebElement card(String pair) {
        return browser.driver.findElement(By.cssSelector("article.card[data-pair='" + pair + "']"));
    }

    /** The text of an element, read again when a live update replaces it meanwhile. */
    String text(By by) {
        return browser.waiting().until(d -> d.findElement(by).getText());
    }

    void view(String name) {
        browser.driver.get(server.url() + "/#" + name);
        browser.waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("view-" + name)));
    }

    @Test
    void verdictCardsShowShareAndVerdictWorstFirst() throws Exception {
        assertThat(card("10.2.0.20 region1").findElement(By.className("share")).getText()).isEqualTo("93.12%");
        assertThat(card("10.2.0.20 region1").findElement(By.className("verdict")).getText()).isEqualTo("PASS");
        assertThat(card("10.2.0.21 region1").findElement(By.className("share")).getText()).isEqualTo("80.00%");
        assertThat(card("10.2.0.21 region1").findElement(By.className("verdict")).getText()).isEqualTo("FAIL");
        assertThat(card("10.2.0.21 region1").findElement(By.className("reason")).getText())
                .isEqualTo("DB share 80.00% of 5000000 cross-site bytes < threshold 90%; largest other category JMS (1000000 bytes)");
        assertThat(browser.driver.findElements(By.cssSelector("article.card")).stream()
                .map(e -> e.getDomAttribute("data-pair")).toList()).containsExactly("10.2.0.21 region1", "10.2.0.20 region1");
        assertThat(text(By.id("summary")))
                .isEqualTo("FAIL: 1 of 2 servers below the 90% DB share · 1 PASS · 0 INSUFFICIENT");
        browser.waiting().until(d -> d.findElements(By.cssSelector(".spark canvas")).size() == 2);
        browser.screenshot("verdicts");
    }

    @Test
    @SuppressWarnings("unchecked")
    void perAddressChartHasABarPerRemoteHostWithItsNameAndRole() throws Exception {
        view("traffic");
        new Select(browser.driver.findElement(By.id("traffic-server"))).selectByValue("10.2.0.20|region1");
        browser.waiting().until(d -> d.findElements(By.cssSelector("#traffic-addresses tbody tr")).size() == 2);
        List<Object> bars = (List<Object>) browser.driver.executeScript(
                "const o = echarts.getInstanceByDom(document.getElementById('traffic-bars')).getOption();"
                        + "return [o.yAxis[0].data, o.series[0].data];");
        assertThat(bars).containsExactly(List.of("<script>alert(1)</script> (app-server)  10.1.0.11", "db1 (db)  10.1.0.10"),
                List.of(6.88, 93.12));
        browser.waiting().until(d -> Boolean.TRUE.equals(browser.driver.executeScript(
                "return echarts.getInstanceByDom(document.getElementById('traffic-area')).getOption().series.length === 2;")));
        browser.screenshot("traffic");
    }

    @Test
    void aHostNamedLikeAScriptIsShownAsText() throws Exception {
        view("traffic");
        new Select(browser.driver.findElement(By.id("traffic-server"))).selectByValue("10.2.0.20|region1");
        browser.waiting().until(d -> d.findElements(By.cssSelector("#traffic-addresses tbody tr")).size() == 2);
        List<String> names = browser.waiting().until(d -> d.findElements(
                By.cssSelector("#traffic-addresses tbody td:first-child")).stream().map(WebElement::getText).toList());
        assertThat(names).containsExactly("db1", "<script>alert(1)</script>");
        view("talkers");
        assertThat(text(By.id("talkers-table")))
                .contains("<script>alert(1)</script> (10.1.0.11)");
        assertThat(browser.driver.findElements(By.tagName("script"))).hasSize(2);
        assertThatThrownBy(() -> browser.driver.switchTo().alert()).isInstanceOf(NoAlertPresentException.class);
        browser.screenshot("talkers");
    }

    @Test
    void aNewAlertAppearsAtTheTopWithoutReload() throws Exception {
        view("alerts");
        browser.waiting().until(d -> d.findElement(By.cssSelector("#alerts-list li .message")).getText()
                .equals("wls4 (10.2.0.21) towards region1: FAIL, DB share 80.00% of 5000000 cross-site bytes < "
                        + "threshold 90%; largest other category JMS (1000000 bytes)"));
        queries.update(s -> s.withAlert(new Alert("RTT", "region2 region1", System.currentTimeMillis(),
                "RTT p95 12.0 ms above the 10 ms limit")));
        browser.waiting().until(d -> d.findElement(By.cssSelector("#alerts-list li .message")).getText()
                .equals("RTT p95 12.0 ms above the 10 ms limit"));
        assertThat(browser.driver.findElements(By.cssSelector("#alerts-list li"))).hasSize(2);
        assertThat(text(By.id("alert-count"))).isEqualTo("2");
        assertThat(text(By.id("alert-settings"))).startsWith("NEW_PEER: the baseline of 1 h ended ")
                .endsWith(" FAIL and RTT (p95 above Oracle's 10 ms support limit) alert when a pair enters the state,"
                        + " again every 1 h while it"
                        + " stays, and CLEARED when it leaves (siteflow process --baseline, --alert-repeat).");
        browser.screenshot("alerts");
    }

    @Test
    void linksAgentsAndRulesViews() throws Exception {
        view("links");
        assertThat(text(By.cssSelector("#links-table tbody tr")))
                .isEqualTo("region1 region2 24.24 kb/s 7.92 kb/s 6.50 ms 12.00 ms above 10 ms 1 s");
        browser.screenshot("links");
        view("agents");
        assertThat(text(By.cssSelector("#agents-table tbody tr.silent td:first-child")))
                .isEqualTo("edge-r1");
        browser.screenshot("agents");
        view("rules");
        assertThat(browser.driver.findElement(By.id("rules-sha")).getText()).isEqualTo(FakeQueries.RULES_VERSION);
        assertThat(browser.driver.findElement(By.id("explain-out")).isDisplayed()).isFalse();
        assertThat(text(By.id("rules-defaults-title"))).isEqualTo("Then the built-in Oracle FMW rules (defaults: fmw), tried after yours");
        assertThat(text(By.id("rules-defaults"))).startsWith("# Oracle Fusion Middleware default rules (siteflow classifier-rules).");
        browser.driver.findElement(By.name("flow")).sendKeys("tcp 10.2.0.20:40112 -> 10.1.0.10:1521");
        browser.driver.findElement(By.cssSelector("#explain-form button")).click();
        browser.waiting().until(d -> !d.findElement(By.id("explain-out")).getText().isEmpty());
        assertThat(text(By.id("explain-out")))
                .isEqualTo("rule oracle-ports (DB) matches tcp 10.2.0.20:40112 -> 10.1.0.10:1521: port 1521");
        browser.screenshot("rules");
    }

    @Test
    void withATokenThePageTakesItOnceAndStaysLive() throws Exception {
        try (ApiServer secured = new ApiServer(new ApiServer.Settings("127.0.0.1", 0, Optional.of("s3cret"), 200),
                queries, () -> "").start()) {
            browser.driver.get(secured.url() + "/?token=s3cret#verdicts");
            browser.waiting().until(d -> "true".equals(d.findElement(By.tagName("body")).getDomAttribute("data-ready")));
            assertThat(card("10.2.0.21 region1").findElement(By.className("share")).getText()).isEqualTo("80.00%");
            assertThat(browser.driver.getCurrentUrl()).isEqualTo(secured.url() + "/#verdicts");
            browser.waiting().until(d -> text(By.id("live")).equals("live"));
        }
    }

    /**
     * A view that cannot answer on the event stream (the links' site-pair RTT while an owner moves) keeps what the
     * page shows and names itself in the live badge, with the reason as its title; it clears when the view answers.
     */
    @Test
    void aViewThatCannotAnswerIsNamedInTheLiveBadgeAndKeepsItsRows() throws Exception {
        String why = "owner of wls4 (10.2.0.21) is moving: no instance runs its task now (the instances are rebalancing)";
        java.util.concurrent.atomic.AtomicReference<RuntimeException> failure = new java.util.concurrent.atomic.AtomicReference<>();
        io.siteflow.processor.query.SiteflowQueries q = (io.siteflow.processor.query.SiteflowQueries)
                java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
                        new Class<?>[] {io.siteflow.processor.query.SiteflowQueries.class}, (proxy, m, args) -> {
                            if (m.getName().equals("sitePairRtts") && failure.get() != null) {
                                throw failure.get();
                            }
                            try {
                                return m.invoke(queries, args);
                            } catch (java.lang.reflect.InvocationTargetException e) {
                                throw e.getCause();
                            }
                        });
        try (ApiServer moving = new ApiServer(new ApiServer.Settings("127.0.0.1", 0, Optional.empty(), 200), q,
                () -> "").start()) {
            browser.driver.get(moving.url() + "/#links");
            browser.waiting().until(d -> "true".equals(d.findElement(By.tagName("body")).getDomAttribute("data-rendered")));
            browser.waiting().until(d -> text(By.id("live")).equals("live"));
            String row = "region1 region2 24.24 kb/s 7.92 kb/s 6.50 ms 12.00 ms above 10 ms 1 s";
            assertThat(text(By.cssSelector("#links-table tbody tr"))).isEqualTo(row);

            failure.set(new io.siteflow.processor.query.OwnersMovingException("site-pair RTTs", "audited servers",
                    List.of(new io.siteflow.processor.query.OwnersMovingException.Unavailable("10.2.0.21", "wls4", why)),
                    List.of(), 2));
            browser.waiting().until(d -> text(By.id("live")).equals("live · links unavailable"));
            assertThat(browser.driver.findElement(By.id("live")).getDomAttribute("title")).isEqualTo("links: " + why);
            assertThat(text(By.cssSelector("#links-table tbody tr"))).isEqualTo(row);

            failure.set(null);
            browser.waiting().until(d -> text(By.id("live")).equals("live"));
            assertThat(browser.driver.findElement(By.id("live")).getDomAttribute("title")).isEmpty();
        }
    }

    /**
     * With {@code rttLimitMs: 5} in the site model, the page compares with the limit the API sends: the link's
     * badge says 5 ms, wls3's card (RTT p95 6.51 ms, within Oracle's 10 ms) turns red, the RTT chart draws the
     * 5 ms line and the alert settings name the site model's limit.
     */
    @Test
    void theRttLimitOfTheSiteModelIsTheOneThePageShows() throws Exception {
        StaticQueries strict = FakeQueries.create(System.currentTimeMillis(), true);
        strict.update(s -> s.withRules(new RulesInfo(FakeQueries.RULES_VERSION, FakeQueries.YAML + "rttLimitMs: 5\n",
                System.currentTimeMillis())));
        try (ApiServer limited = new ApiServer(new ApiServer.Settings("127.0.0.1", 0, Optional.empty(), 200),
                strict, () -> "").start()) {
            JsonNode rules = JSON.readTree(new java.net.URL(limited.url() + "/api/rules"));
            JsonNode link = JSON.readTree(new java.net.URL(limited.url() + "/api/links")).get(0);
            assertThat(List.of(rules.get("rttLimitMicros").asLong(), link.get("limitMicros").asLong()))
                    .containsExactly(5000L, 5000L);
            assertThat(link.get("limitSource").asText()).isEqualTo("site-model");
            browser.driver.get(limited.url() + "/#links");
            browser.waiting().until(d -> "true".equals(d.findElement(By.tagName("body")).getDomAttribute("data-rendered")));
            assertThat(text(By.cssSelector("#links-table tbody tr")))
                    .isEqualTo("region1 region2 24.24 kb/s 7.92 kb/s 6.50 ms 12.00 ms above 5 ms 1 s");
            assertThat(browser.driver.findElement(By.cssSelector("#links-table tbody .badge")).getDomAttribute("title"))
                    .isEqualTo("the site model's 5 ms limit (rttLimitMs)");
            assertThat(browser.driver.executeScript("const o = echarts.getInstanceByDom("
                    + "document.getElementById('links-rtt')).getOption().series[0].markLine;"
                    + "return [o.data[0].yAxis, o.label.formatter];"))
                    .isEqualTo(List.of(5L, "the site model's 5 ms limit (rttLimitMs)"));
            browser.driver.get(limited.url() + "/#verdicts");
            browser.waiting().until(d -> "true".equals(d.findElement(By.tagName("body")).getDomAttribute("data-ready")));
            WebElement rtt = card("10.2.0.20 region1").findElement(By.className("rtt"));
            assertThat(rtt.getText()).isEqualTo("RTT p95 6.51 ms");
            assertThat(rtt.getDomAttribute("class")).isEqualTo("rtt above");
            assertThat(rtt.getDomAttribute("title")).isEqualTo("handshake RTT of the pair: p50 6.50 ms, p95 6.51 ms, "
                    + "812 samples; the site model's 5 ms limit (rttLimitMs)");
            browser.driver.get(limited.url() + "/#alerts");
            browser.waiting().until(d -> "true".equals(d.findElement(By.tagName("body")).getDomAttribute("data-ready")));
            assertThat(text(By.id("alert-settings")))
                    .contains(" FAIL and RTT (p95 above the site model's 5 ms limit (rttLimitMs)) alert when ");
        }
    }

    /**
     * {@code ?live=0}: the page renders once from the API and holds no event stream, so headless Chromium's
     * {@code --screenshot --virtual-time-budget} finishes; the numbers are the API's.
     */
    @Test
    void withLive0ThePageRendersOnceFromTheApiAndOpensNoEventStream() throws Exception {
        try (ApiServer fresh = new ApiServer(new ApiServer.Settings("127.0.0.1", 0, Optional.empty(), 200),
                queries, () -> "").start()) {
            browser.driver.get(fresh.url() + "/?live=0#verdicts");
            browser.waiting().until(d -> "true".equals(d.findElement(By.tagName("body")).getDomAttribute("data-rendered")));
            JsonNode verdicts = JSON.readTree(new java.net.URL(fresh.url() + "/api/verdicts"));
            for (JsonNode v : verdicts) {
                String pair = v.get("server").asText() + " " + v.get("remoteSite").asText();
                assertThat(card(pair).findElement(By.className("share")).getText())
                        .isEqualTo(String.format(java.util.Locale.ROOT, "%.2f%%", v.get("dbShare").asDouble() * 100));
                assertThat(card(pair).findElement(By.className("verdict")).getText()).isEqualTo(v.get("verdict").asText());
            }
            assertThat(text(By.id("live"))).startsWith("snapshot ");
            browser.driver.get(fresh.url() + "/?live=0#links");
            browser.waiting().until(d -> "true".equals(d.findElement(By.tagName("body")).getDomAttribute("data-rendered")));
            assertThat(text(By.cssSelector("#links-table tbody tr")))
                    .isEqualTo("region1 region2 24.24 kb/s 7.92 kb/s 6.50 ms 12.00 ms above 10 ms 1 s");
            // the bandwidth chart starts from the server's history (its first sample, taken when the server started)
            JsonNode history = JSON.readTree(new java.net.URL(fresh.url() + "/api/links/history")).get(0);
            Object first = browser.driver.executeScript("return echarts.getInstanceByDom("
                    + "document.getElementById('links-bandwidth')).getOption().series.map((s) => [s.name, s.data[0]]);");
            long t = history.get("points").get(0).get(0).asLong();
            assertThat(first).isEqualTo(List.of(List.of("region1 → region2", List.of(t, 3030L)),
                    List.of("region2 → region1", List.of(t, 990L))));
            assertThat(fresh.eventClients()).isZero();
        }
    }

    /** What the issue asked for: {@code chromium --headless --screenshot --virtual-time-budget} of a view finishes. */
    @Test
    void headlessChromiumTakesAScreenshotOfALive0Page() throws Exception {
        java.nio.file.Path out = Browser.readmeImage("live0-cli-screenshot");
        java.nio.file.Files.deleteIfExists(out);
        java.nio.file.Path profile = java.nio.file.Files.createTempDirectory("siteflow-chromium-cli");
        Process p = new ProcessBuilder(Browser.CHROMIUM.toString(), "--headless=new", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--user-data-dir=" + profile, "--window-size=1400,1000",
                "--virtual-time-budget=10000", "--screenshot=" + out.toAbsolutePath(),
                server.url() + "/?live=0#links").redirectErrorStream(true)
                .redirectOutput(profile.resolve("chromium.log").toFile()).start();
        try {
            assertThat(p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS)).as("chromium finished").isTrue();
            assertThat(p.exitValue()).isZero();
            byte[] png = java.nio.file.Files.readAllBytes(out);
            assertThat(java.util.Arrays.copyOf(png, 8)).isEqualTo(new byte[] {(byte) 0x89, 'P', 'N', 'G', 13, 10, 26, 10});
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            try (var files = java.nio.file.Files.walk(profile)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    @Test
    void reportPageShowsThePeriodAndOffersCsv() throws Exception {
        browser.driver.get(server.url() + "/report.html");
        browser.waiting().until(d -> "true".equals(d.findElement(By.tagName("body")).getDomAttribute("data-ready")));
        assertThat(browser.driver.findElements(By.cssSelector("#report-table tbody tr"))).hasSize(2);
        assertThat(browser.driver.findElement(By.id("csv")).getDomProperty("href")).contains("format=csv");
        browser.screenshot("report");
    }
}
