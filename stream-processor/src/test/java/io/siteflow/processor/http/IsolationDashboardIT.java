package io.siteflow.processor.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.siteflow.rules.isolation.IsolationInputs;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * The dashboard's Isolation view in a real headless Chromium against the API server with the fixture's isolation
 * data ({@link FakeQueries#isolation}): the numbers on the page are read and compared with the JSON of
 * {@code /api/isolation} fetched in the same test; the proposal button shows what {@code /api/isolation/propose}
 * answers; a model without a policy is said in the view's place. Screenshots {@code dashboard-isolation-WIDTH.png}
 * (1400 and 800 px) go to target/screenshots, or to docs/images with {@code ./siteflow screenshots}
 * ({@link Browser#readmeImage}).
 */
class IsolationDashboardIT {
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final Map<String, String> STATE_WORDS = Map.of("ISOLATED", "isolated", "NOT_ISOLATED", "not isolated",
            "UNVERIFIED", "unverified");
    static StaticQueries queries;
    static ApiServer server;
    static Browser browser;

    @BeforeAll
    static void start() throws Exception {
        Browser.assumeInstalled();
        queries = FakeQueries.create(System.currentTimeMillis(), true);
        server = new ApiServer(new ApiServer.Settings("127.0.0.1", 0, Optional.empty(), 200), queries, () -> "").start();
        browser = Browser.start(1400, 1000);
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

    static String api(ApiServer s, String path) throws IOException, InterruptedException {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(s.url() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
        return r.body();
    }

    /** Opens the view rendered once from the API ({@code ?live=0}: no event stream, no polling). */
    static void openSnapshot(ApiServer s) {
        browser.driver.get(s.url() + "/?live=0#isolation");
        browser.waiting().until(d -> "true".equals(d.findElement(By.tagName("body")).getDomAttribute("data-rendered")));
    }

    static String text(By by) {
        return browser.waiting().until(d -> d.findElement(by).getText());
    }

    /** The page's name for an address, as the view writes it: "wls4 10.2.0.21", or the address of an unlisted one. */
    static String named(Map<String, String> names, String address) {
        return names.containsKey(address) ? names.get(address) + " " + address : address;
    }

    static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** µs as the page writes them: "0.28 ms". */
    static String ms(long micros) {
        return String.format(Locale.ROOT, "%.2f ms", micros / 1000.0);
    }

    static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    @Test
    void theMatrixAndEveryViolationShowTheNumbersOfTheApi() throws Exception {
        openSnapshot(server);
        JsonNode report = ApiJson.mapper().readTree(api(server, "/api/isolation"));
        Map<String, String> names = new HashMap<>();
        ApiJson.mapper().readTree(api(server, "/api/hosts")).forEach(h -> names.put(h.get("address").asText(),
                h.get("name").asText()));

        // the matrix: one cell per pair, its state as a word and a colour class, its violating bytes
        assertThat(report.get("pairs")).hasSize(9);
        for (JsonNode p : report.get("pairs")) {
            WebElement cell = browser.driver.findElement(By.cssSelector("#isolation-matrix td[data-from='"
                    + p.get("from").asText() + "'][data-to='" + p.get("to").asText() + "']"));
            String state = p.get("state").asText();
            long bytes = p.get("violatingBytes").asLong();
            assertThat(cell.getDomAttribute("data-state")).isEqualTo(state);
            assertThat(cell.getDomAttribute("class")).isEqualTo("state " + state);
            assertThat(cell.getText()).as(p.toString())
                    .isEqualTo(STATE_WORDS.get(state) + (bytes > 0 ? "\n" + count(bytes) + " B" : ""));
        }
        assertThat(browser.driver.findElements(By.cssSelector("#isolation-matrix tbody th[scope=row]")).stream()
                .map(WebElement::getText).toList()).containsExactly("unlisted", "soa", "db");
        assertThat(text(By.cssSelector("#isolation-matrix td[data-from=soa][data-to=db]")))
                .isEqualTo("not isolated\n230,000 B");
        assertThat(text(By.id("isolation-summary")))
                .isEqualTo("3 of 9 group pairs not isolated · 3 unverified · 3 violating edges");
        assertThat(text(By.id("isolation-policy"))).isEqualTo(report.get("policy").asText());
        assertThat(text(By.id("isolation-model"))).isEqualTo(report.get("model").asText());
        assertThat(text(By.id("isolation-period"))).isEqualTo("everything the processor retains");

        // every violation, in the API's order, with its evidence and the nearest allow rule's failed conditions
        List<WebElement> cards = browser.driver.findElements(By.cssSelector("#isolation-violations article.violation"));
        assertThat(cards).hasSize(report.get("violations").size()).hasSize(3);
        for (int i = 0; i < cards.size(); i++) {
            JsonNode v = report.get("violations").get(i);
            WebElement card = cards.get(i);
            assertThat(card.getDomAttribute("data-edge")).isEqualTo(v.get("client").asText() + "|"
                    + v.get("server").asText() + "|" + v.get("serverPort").asInt() + "|" + v.get("proto").asInt());
            Map<String, String> expected = new java.util.LinkedHashMap<>();
            expected.put("decision", v.get("decision").asText());
            expected.put("rule", v.get("rule").asText().isEmpty() ? "no rule" : v.get("rule").asText());
            expected.put("edge", named(names, v.get("client").asText()) + " → " + named(names, v.get("server").asText())
                    + ":" + v.get("serverPort").asInt() + " " + (v.get("proto").asInt() == 6 ? "tcp" : "?"));
            expected.put("sites", v.get("clientSite").asText() + " → " + v.get("serverSite").asText());
            expected.put("groups", String.join(", ", strings(v.get("fromGroups"))) + " → "
                    + String.join(", ", strings(v.get("toGroups"))));
            expected.put("category", v.get("category").asText());
            expected.put("l7", v.get("l7").asText());
            expected.put("bytes", count(v.get("bytes").asLong()) + " B");
            expected.put("packets", count(v.get("packets").asLong()));
            expected.put("flows", count(v.get("flows").asLong()));
            expected.put("firstSeen", Instant.ofEpochMilli(v.get("firstSeenMs").asLong()).toString());
            expected.put("lastSeen", Instant.ofEpochMilli(v.get("lastSeenMs").asLong()).toString());
            expected.put("nearestAllow", v.get("nearestAllow").get("rule").asText());
            Map<String, String> shown = new java.util.LinkedHashMap<>();
            for (String f : expected.keySet()) {
                shown.put(f, card.findElement(By.cssSelector("[data-field='" + f + "']")).getText());
            }
            assertThat(shown).as(v.toString()).isEqualTo(expected);
            assertThat(card.findElements(By.cssSelector("ul.failed li")).stream().map(WebElement::getText).toList())
                    .isEqualTo(strings(v.get("nearestAllow").get("failed")));
        }
        // the fixture's own numbers, so that the comparison above cannot pass over an empty report
        WebElement denied = cards.get(0);
        assertThat(denied.findElement(By.cssSelector("[data-field=edge]")).getText())
                .isEqualTo("wls4 10.2.0.21 → db1 10.1.0.10:1521 tcp");
        assertThat(denied.findElement(By.cssSelector("[data-field=bytes]")).getText()).isEqualTo("230,000 B");
        assertThat(denied.findElement(By.cssSelector("ul.failed li")).getText()).isEqualTo("l7: t3 not in [oracle-tns]");
        assertThat(cards.get(2).findElement(By.cssSelector("[data-field=edge]")).getText())
                .isEqualTo("wls3 10.2.0.20 → <script>alert(1)</script> 10.1.0.11:22 tcp");

        // MODEL_SUSPECT and the observers not heard in full
        JsonNode suspect = report.get("modelSuspects").get(0);
        assertThat(browser.driver.findElements(By.cssSelector("#isolation-suspects li")).stream()
                .map(e -> e.getDomAttribute("data-address")).toList()).containsExactly("10.1.0.11");
        assertThat(text(By.cssSelector("#isolation-suspects li .message"))).isEqualTo(suspect.get("message").asText());
        assertThat(text(By.cssSelector("#isolation-suspects li .figures"))).isEqualTo("(<script>alert(1)</script> "
                + "10.1.0.11 in " + suspect.get("site").asText() + ", peers in " + suspect.get("peerSite").asText()
                + ": min handshake RTT " + ms(suspect.get("minRttMicros").asLong()) + ", reference "
                + ms(suspect.get("referenceMicros").asLong()) + ")");
        assertThat(ms(suspect.get("minRttMicros").asLong())).isEqualTo("0.28 ms");
        assertThat(text(By.cssSelector("#isolation-unverified li"))).isEqualTo("UNVERIFIED agent db1 (host agent of "
                + "db1 10.1.0.10): " + report.get("unverified").get(0).get("reason").asText());
        assertThat(browser.driver.findElement(By.id("isolation-csv")).getDomProperty("href")).isEqualTo(server.url()
                + "/api/isolation/report?from=0&to=" + IsolationView.ALL_TO + "&format=csv");
    }

    /**
     * "last hour" asks the API for the hour ending now: the period is shown in UTC, the CSV link names it, and the
     * fixture's edges (all within the hour) are still there.
     */
    @Test
    void aPeriodPickedAsksTheApiForItAndTheCsvLinkNamesIt() throws Exception {
        openSnapshot(server);
        new org.openqa.selenium.support.ui.Select(browser.driver.findElement(By.name("period"))).selectByValue("1h");
        browser.waiting().until(d -> !d.findElement(By.id("isolation-period")).getText()
                .equals("everything the processor retains"));
        java.net.URI csv = java.net.URI.create(browser.driver.findElement(By.id("isolation-csv")).getDomProperty("href"));
        assertThat(csv.getPath()).isEqualTo("/api/isolation/report");
        Map<String, Long> q = new HashMap<>();
        for (String kv : csv.getQuery().split("&")) {
            String[] p = kv.split("=", 2);
            q.put(p[0], p[0].equals("format") ? 0L : Long.parseLong(p[1]));
        }
        assertThat(q.keySet()).containsExactlyInAnyOrder("from", "to", "format");
        assertThat(csv.getQuery()).endsWith("&format=csv");
        assertThat(q.get("to") - q.get("from")).isEqualTo(3_600_000L);
        assertThat(text(By.id("isolation-period"))).isEqualTo(Instant.ofEpochMilli(q.get("from")) + " to "
                + Instant.ofEpochMilli(q.get("to")));
        assertThat(browser.driver.findElements(By.cssSelector("#isolation-violations article.violation"))).hasSize(3);
        String csvBody = api(server, csv.getPath() + "?" + csv.getQuery());
        assertThat(csvBody.split("\r\n")).hasSize(4);
        assertThat(csvBody).startsWith("decision,rule,client,server,");
    }

    @Test
    void theProposalButtonShowsTheBlockTheApiProposes() throws Exception {
        openSnapshot(server);
        WebElement out = browser.driver.findElement(By.id("isolation-proposal"));
        assertThat(out.isDisplayed()).isFalse();
        browser.driver.findElement(By.id("isolation-propose")).click();
        browser.waiting().until(d -> "true".equals(out.getDomAttribute("data-done")));
        assertThat(out.getDomProperty("textContent")).isEqualTo(api(server, "/api/isolation/propose?minFlows=1"))
                .contains("\nisolation:\n", "name: unlisted-to-db-DB-1521");
        assertThat(browser.driver.findElement(By.id("isolation-copy")).isDisplayed()).isTrue();

        WebElement minFlows = browser.driver.findElement(By.name("minFlows"));
        minFlows.clear();
        minFlows.sendKeys("2");
        browser.driver.findElement(By.id("isolation-propose")).click();
        browser.waiting().until(d -> "true".equals(out.getDomAttribute("data-done")));
        assertThat(out.getDomProperty("textContent")).isEqualTo(api(server, "/api/isolation/propose?minFlows=2"))
                .doesNotContain("name: unlisted-to-db-DB-1521");
    }

    /**
     * A model without an {@code isolation:} block: the view says so in its place (the API's 404 message), and the
     * proposal still answers; live, the view follows the model in force within its polling interval, and a report
     * shown stays while the API answers 503.
     */
    @Test
    void aModelWithoutAPolicyIsSaidAndAProposalIsStillMade() throws Exception {
        StaticQueries q = FakeQueries.create(System.currentTimeMillis(), true);
        long end = q.isolation(0, IsolationView.ALL_TO).orElseThrow().toMs();
        try (ApiServer s = new ApiServer(new ApiServer.Settings("127.0.0.1", 0, Optional.empty(), 200), q,
                () -> "").start()) {
            browser.driver.get(s.url() + "/#isolation");
            browser.waiting().until(d -> "true".equals(d.findElement(By.tagName("body")).getDomAttribute("data-rendered")));
            assertThat(text(By.id("isolation-summary"))).startsWith("3 of 9 group pairs not isolated");
            assertThat(browser.driver.findElement(By.id("isolation-status")).isDisplayed()).isFalse();

            // a 503 (here: no model in force) is said above the report shown, which stays
            IsolationInputs before = q.isolation(0, IsolationView.ALL_TO).orElseThrow();
            q.withoutIsolation();
            browser.waiting().until(d -> d.findElement(By.id("isolation-status")).isDisplayed());
            assertThat(text(By.id("isolation-status")))
                    .isEqualTo("HTTP 503: isolation: no site model in force yet (the processor reads it from siteflow.sites)");
            assertThat(browser.driver.findElement(By.id("isolation-body")).isDisplayed()).isTrue();
            assertThat(text(By.id("isolation-summary"))).startsWith("3 of 9 group pairs not isolated");
            q.withIsolation(before);
            browser.waiting().until(d -> !d.findElement(By.id("isolation-status")).isDisplayed());

            q.withIsolation(FakeQueries.isolation(end, FakeQueries.YAML_WITHOUT_POLICY));
            String model = q.isolation(0, 1).orElseThrow().evaluator().classifier().model().version();
            browser.waiting().until(d -> d.findElement(By.id("isolation-status")).isDisplayed());
            assertThat(text(By.id("isolation-status"))).isEqualTo("HTTP 404: isolation: the site model in force ("
                    + model + ") has no isolation: block; GET /api/isolation/propose proposes one from the traffic");
            assertThat(browser.driver.findElement(By.id("isolation-body")).isDisplayed()).isFalse();

            browser.driver.findElement(By.id("isolation-propose")).click();
            WebElement out = browser.driver.findElement(By.id("isolation-proposal"));
            browser.waiting().until(d -> "true".equals(out.getDomAttribute("data-done")));
            assertThat(out.getDomProperty("textContent")).isEqualTo(api(s, "/api/isolation/propose?minFlows=1"))
                    .contains("\nisolation:\n");
        }
    }

    /**
     * At 1400 and 800 px the view keeps words whole and the page does not scroll sideways (the matrix and the
     * evidence wrap or scroll in their own box); a screenshot of each width ({@code dashboard-isolation-WIDTH.png}).
     */
    @Test
    void theViewAt1400And800PixelsKeepsWordsWholeAndFitsTheWindow() throws Exception {
        try {
            for (int width : new int[] {1400, 800}) {
                browser.resize(width, 1000);
                openSnapshot(server);
                browser.driver.findElement(By.id("isolation-propose")).click();
                browser.waiting().until(d -> "true".equals(d.findElement(By.id("isolation-proposal"))
                        .getDomAttribute("data-done")));
                assertThat(browser.driver.executeScript(Browser.BROKEN_WORDS)).as(width + " px")
                        .isEqualTo(List.of());
                assertThat(browser.driver.executeScript("return document.documentElement.scrollWidth <= window.innerWidth;"))
                        .as(width + " px").isEqualTo(true);
                browser.driver.executeScript("window.scrollTo(0, 0);");
                browser.screenshotTo(Browser.readmeImage("dashboard-isolation-" + width));
            }
        } finally {
            browser.resize(1400, 1000);
        }
    }
}
