package io.siteflow.processor.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
                .isEqualTo("NOT isolated: 1 of 2 pairs FAIL · 1 PASS · 0 INSUFFICIENT");
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
                .endsWith(" FAIL and RTT (p95 above 10 ms) alert when a pair enters the state, again every 1 h while it"
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

    @Test
    void reportPageShowsThePeriodAndOffersCsv() throws Exception {
        browser.driver.get(server.url() + "/report.html");
        browser.waiting().until(d -> "true".equals(d.findElement(By.tagName("body")).getDomAttribute("data-ready")));
        assertThat(browser.driver.findElements(By.cssSelector("#report-table tbody tr"))).hasSize(2);
        assertThat(browser.driver.findElement(By.id("csv")).getDomProperty("href")).contains("format=csv");
        browser.screenshot("report");
    }
}
