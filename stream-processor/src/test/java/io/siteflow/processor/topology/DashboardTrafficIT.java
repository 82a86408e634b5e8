package io.siteflow.processor.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.siteflow.processor.http.ApiServer;
import io.siteflow.processor.http.Browser;
import io.siteflow.synth.SyntheticCluster;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * Known traffic through the real topology (Kafka Streams' {@code TopologyTestDriver}: every step and store, no
 * broker), the real API server and the dashboard in a real headless Chromium: the numbers on the page are read,
 * parsed back and compared with the API's and with what was sent. Ten minutes of flow records, 10 s records
 * back to back, with event times in the last hour (so the page's hour-long charts show them):
 * wls3 → db1:1521 (DB) 1,000,000 B out and 100,000 B in per 10 s, wls3 → wls1:7001 (CLUSTER) 80,000 B;
 * wls4 → db1 400,000 B (DB) and to wls1 50,000 B on 7001 (CLUSTER), 30,000 B on 7574 (COHERENCE) and 20,000 B on
 * 5201 (UNKNOWN): one host pair, three categories; once, in the first minute, wls4 → 10.1.0.2:53 (a DNS server the
 * model does not list) 2,000 B; wls5 → db1 400 B once (INSUFFICIENT: minCrossBytes 1000).
 */
class DashboardTrafficIT {
    /** The synthetic cluster's model with the FMW default rules after its own (coherence port 7574 among them). */
    static final String SITES = SyntheticCluster.SITES.replace("defaults: none\n", "");
    static final int MINUTES = 10;
    static final int SLOTS = 6;
    @TempDir
    static Path dir;
    static Driver d;
    static ApiServer server;
    static Browser browser;
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static final ObjectMapper JSON = new ObjectMapper();

    @BeforeAll
    static void start() throws Exception {
        Browser.assumeInstalled();
        d = new Driver(dir).withSites(SITES);
        d.agents.pipeInput("edge-r2", "{\"agent\":\"edge-r2\",\"iface\":\"ens4\",\"time\":"
                + System.currentTimeMillis() + ",\"received\":1234567,\"droppedKernel\":0}");
        long base = System.currentTimeMillis() / 60_000 * 60_000 - MINUTES * 60_000L;
        for (int m = 0; m < MINUTES; m++) {
            for (int k = 0; k < SLOTS; k++) {
                long s = base + m * 60_000L + k * 10_000L;
                send(s, "10.2.0.20", 40000 + k, "10.1.0.10", 1521, 1_000_000, 100_000, k == 0 ? 6_400L : null);
                send(s, "10.2.0.20", 41000 + k, "10.1.0.20", 7001, 80_000, 0, null);
                send(s, "10.2.0.21", 40000 + k, "10.1.0.10", 1521, 400_000, 0, k == 0 ? 12_000L : null);
                send(s, "10.2.0.21", 41000 + k, "10.1.0.20", 7001, 50_000, 0, null);
                send(s, "10.2.0.21", 42000 + k, "10.1.0.20", 7574, 30_000, 0, null);
                send(s, "10.2.0.21", 43000 + k, "10.1.0.20", 5201, 20_000, 0, null);
            }
        }
        send(base, "10.2.0.21", 44000, "10.1.0.2", 53, 2_000, 0, null);
        send(base + (MINUTES - 1) * 60_000L, "10.2.0.22", 40000, "10.1.0.10", 1521, 400, 0, null);
        server = new ApiServer(new ApiServer.Settings("127.0.0.1", 0, java.util.Optional.empty(), 200), d.queries(),
                () -> "").start();
        browser = Browser.start(1400, 1000);
        browser.driver.get(server.url() + "/");
        browser.waiting().until(x -> "true".equals(x.findElement(By.tagName("body")).getDomAttribute("data-ready")));
    }

    private static void send(long start, String src, int srcPort, String dst, int dstPort, long out, long in,
                             Long rtt) {
        Flows f = Flows.flow().agent("edge-r2").span(start, start + 9_999).from(src, srcPort).to(dst, dstPort)
                .bytes(out, in);
        d.send(rtt == null ? f : f.rtt(rtt));
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable c : new AutoCloseable[] {browser, server, d}) {
            if (c != null) {
                c.close();
            }
        }
    }

    static JsonNode api(String path) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(server.url() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(path).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    static void view(String name) {
        browser.driver.get(server.url() + "/#" + name);
        browser.waiting().until(x -> "true".equals(x.findElement(By.tagName("body")).getDomAttribute("data-ready")));
        browser.waiting().until(ExpectedConditions.visibilityOfElementLocated(By.id("view-" + name)));
    }

    static final Pattern RATE = Pattern.compile("([0-9.]+) (b|kb|Mb|Gb|B|kB|MB|GB)/s");
    static final Map<String, Double> UNIT = Map.of("b", 1.0, "kb", 1e3, "Mb", 1e6, "Gb", 1e9,
            "B", 8.0, "kB", 8e3, "MB", 8e6, "GB", 8e9);

    /** A rate as the page shows it ("800.00 kb/s", "1.0 kB/s") in bits per second. */
    static double bitsPerSecond(String text) {
        Matcher m = RATE.matcher(text);
        assertThat(m.matches()).as("a rate: \"" + text + "\"").isTrue();
        return Double.parseDouble(m.group(1)) * UNIT.get(m.group(2));
    }

    /** The cells of the talkers row of {@code local}'s category {@code category}, read again after live updates. */
    static List<String> talkerRow(String local, String category) {
        return browser.waiting().until(x -> x.findElements(By.cssSelector("#talkers-table tbody tr")).stream()
                .map(tr -> tr.findElements(By.tagName("td")).stream().map(WebElement::getText).toList())
                .filter(c -> c.get(0).contains(local) && c.get(2).equals(category)).findFirst().orElse(null));
    }

    @Test
    void talkersShowEachCategoryOfAHostPairWithTheRateThatWasSent() throws Exception {
        view("talkers");
        JsonNode rows = api("/api/talkers");
        // bytes sent per 10 s record, per (server, category): the 2/10/40 s rates are that over 10 s
        Map<String, Long> sent = Map.of("wls3 (10.2.0.20)|DB", 1_000_000L, "wls3 (10.2.0.20)|CLUSTER", 80_000L,
                "wls4 (10.2.0.21)|DB", 400_000L, "wls4 (10.2.0.21)|CLUSTER", 50_000L,
                "wls4 (10.2.0.21)|COHERENCE", 30_000L, "wls4 (10.2.0.21)|UNKNOWN", 20_000L);
        for (Map.Entry<String, Long> e : sent.entrySet()) {
            String[] k = e.getKey().split("\\|");
            List<String> cells = talkerRow(k[0], k[1]);
            double sentBits = e.getValue() / 10.0 * 8;
            JsonNode api = find(rows, k[0].substring(k[0].indexOf('(') + 1, k[0].length() - 1), k[1]);
            for (int col = 3; col <= 5; col++) {
                double shown = bitsPerSecond(cells.get(col));
                assertThat(shown).as(e.getKey() + " column " + col).isCloseTo(sentBits, within(sentBits * 0.005));
                assertThat(shown).isCloseTo(api.get(List.of("out2s", "out10s", "out40s").get(col - 3)).asDouble() * 8,
                        within(sentBits * 0.005));
            }
        }
        assertThat(talkerRow("wls3 (10.2.0.20)", "DB").subList(3, 9)).containsExactly("800.00 kb/s", "800.00 kb/s",
                "800.00 kb/s", "80.00 kb/s", "80.00 kb/s", "80.00 kb/s");
        // and wls5's DB, wls4's DNS
        assertThat(browser.driver.findElements(By.cssSelector("#talkers-table tbody tr"))).hasSize(8);
        browser.driver.findElement(By.id("unit-bytes")).click();
        browser.waiting().until(x -> talkerRow("wls3 (10.2.0.20)", "DB").get(4).equals("100.0 kB/s"));
        browser.driver.findElement(By.id("unit-bytes")).click();
        browser.waiting().until(x -> talkerRow("wls3 (10.2.0.20)", "DB").get(4).equals("800.00 kb/s"));
    }

    private static JsonNode find(JsonNode rows, String local, String category) {
        for (JsonNode r : rows) {
            if (r.get("local").asText().equals(local) && r.get("category").asText().equals(category)) {
                return r;
            }
        }
        throw new AssertionError("no talker " + local + " " + category + " in " + rows);
    }

    @Test
    void verdictCardsShowTheShareOfTheTrafficSentItsRttAndWhatAnInsufficientPairLacks() throws Exception {
        view("verdicts");
        JsonNode verdicts = api("/api/verdicts");
        assertThat(verdicts).hasSize(3);
        // wls3: DB 60 x 1,100,000 of 60 x 1,180,000 bytes; wls4: 60 x 400,000 of 60 x 500,000
        assertThat(share("10.2.0.20 region1")).isEqualTo("93.22%")
                .isEqualTo(percent(verdicts.get(0).get("dbShare").asDouble()))
                .isEqualTo(percent(Math.floor(66_000_000.0 / 70_800_000 * 10_000) / 10_000));
        // wls4: 60 x 400,000 of 60 x 500,000 + 2,000 (the DNS flow)
        assertThat(share("10.2.0.21 region1")).isEqualTo("79.99%")
                .isEqualTo(percent(verdicts.get(1).get("dbShare").asDouble()))
                .isEqualTo(percent(Math.floor(24_000_000.0 / 30_002_000 * 10_000) / 10_000));
        assertThat(cardText("10.2.0.20 region1", "threshold")).isEqualTo("threshold 90.00% · 70,800,000 B (70.8 MB) cross-site");
        assertThat(cardText("10.2.0.20 region1", "rtt")).isEqualTo("RTT p95 6.40 ms");
        assertThat(card("10.2.0.20 region1").findElement(By.className("rtt")).getDomAttribute("class")).isEqualTo("rtt");
        assertThat(cardText("10.2.0.21 region1", "rtt")).isEqualTo("RTT p95 12.00 ms");
        assertThat(card("10.2.0.21 region1").findElement(By.className("rtt")).getDomAttribute("class"))
                .isEqualTo("rtt above");
        assertThat(share("10.2.0.22 region1")).isEqualTo("600 B missing");
        assertThat(cardText("10.2.0.22 region1", "missing-detail")).isEqualTo(
                "400 B of the 1,000 B of cross-site traffic a verdict needs (40.00%); 600 B to go");
        assertThat(verdicts.get(2).get("crossBytes").asLong()).isEqualTo(400);
    }

    @Test
    @SuppressWarnings("unchecked")
    void whereTheBytesGoNamesAListedHostAndShowsAnUnlistedAddressOnce() throws Exception {
        view("traffic");
        new org.openqa.selenium.support.ui.Select(browser.driver.findElement(By.id("traffic-server")))
                .selectByValue("10.2.0.21|region1");
        browser.waiting().until(x -> x.findElements(By.cssSelector("#traffic-addresses tbody tr")).size() == 3);
        List<Object> labels = browser.waiting().until(x -> (List<Object>) browser.driver.executeScript(
                "const o = echarts.getInstanceByDom(document.getElementById('traffic-bars')).getOption();"
                        + "return o.yAxis[0].data.length === 3 ? o.yAxis[0].data : null;"));
        assertThat(labels).containsExactlyInAnyOrder("db1 (db)  10.1.0.10", "wls1 (app-server)  10.1.0.20", "10.1.0.2");
        List<String> dns = browser.driver.findElements(By.cssSelector("#traffic-addresses tbody tr")).stream()
                .map(tr -> tr.findElements(By.tagName("td")).stream().map(WebElement::getText).toList())
                .filter(c -> c.get(2).equals("10.1.0.2")).findFirst().orElseThrow();
        assertThat(dns.subList(0, 4)).containsExactly("", "", "10.1.0.2", "2,000 B (2.0 kB)");
    }

    static WebElement card(String pair) {
        return browser.driver.findElement(By.cssSelector("article.card[data-pair='" + pair + "']"));
    }

    static String cardText(String pair, String className) {
        return browser.waiting().until(x -> card(pair).findElement(By.className(className)).getText());
    }

    static String share(String pair) {
        return cardText(pair, "share");
    }

    /** 0.9322 -> "93.22%", as the page formats a share. */
    static String percent(double share) {
        return String.format(java.util.Locale.ROOT, "%.2f%%", share * 100);
    }

    @Test
    void linksShowTheBandwidthEachWayThatWasSent() throws Exception {
        view("links");
        JsonNode link = api("/api/links").get(0);
        List<String> cells = browser.waiting().until(x -> x.findElements(By.cssSelector("#links-table tbody td"))
                .stream().map(WebElement::getText).toList());
        // region1 → region2: the in bytes of wls3's DB flow; region2 → region1: everything else, per 10 s
        double aToB = 100_000 / 10.0 * 8;
        double bToA = (1_000_000 + 80_000 + 400_000 + 50_000 + 30_000 + 20_000) / 10.0 * 8;
        assertThat(cells.subList(0, 2)).containsExactly("region1", "region2");
        assertThat(bitsPerSecond(cells.get(2))).isCloseTo(aToB, within(aToB * 0.005))
                .isCloseTo(link.get("aToBBps").asDouble() * 8, within(aToB * 0.005));
        assertThat(bitsPerSecond(cells.get(3))).isCloseTo(bToA, within(bToA * 0.005))
                .isCloseTo(link.get("bToABps").asDouble() * 8, within(bToA * 0.005));
        assertThat(cells.subList(4, 7)).containsExactly("6.40 ms", "12.00 ms", "above 10 ms");
        String map = browser.driver.findElement(By.id("site-map")).getText();
        assertThat(map).contains("region1 → region2: 80.00 kb/s", "region2 → region1: 1.26 Mb/s", "RTT p95 12.00 ms");
        Object limit = browser.waiting().until(x -> browser.driver.executeScript(
                "const o = echarts.getInstanceByDom(document.getElementById('links-rtt')).getOption();"
                        + "return [o.series[0].markLine.data[0].yAxis, o.yAxis[0].max > 10, o.series.length];"));
        assertThat(limit).isEqualTo(List.of(10L, true, 2L));
    }

    static final List<String> VIEWS = List.of("verdicts", "traffic", "links", "talkers", "agents", "alerts", "rules");
    /**
     * The header's summary as it is laid out: its text, whether any of it is clipped (wider than its box, or a
     * line of it outside the window), and whether the tabs stay below the header.
     */
    static final String SUMMARY_LAYOUT = """
            const s = document.getElementById('summary');
            const h = document.querySelector('header.top').getBoundingClientRect();
            const r = document.createRange();
            r.selectNodeContents(s);
            const lines = [...r.getClientRects()].filter((x) => x.width > 0);
            const clipped = s.scrollWidth > s.clientWidth || getComputedStyle(s).textOverflow === 'ellipsis'
              || lines.some((x) => x.left < 0 || x.right > window.innerWidth || x.bottom > h.bottom);
            const nav = document.querySelector('nav.tabs').getBoundingClientRect().top;
            return [s.textContent, clipped, nav >= h.bottom - 1];""";

    /**
     * Every view at 1400 and 800 px (CSS pixels of the window's inside): no word broken across lines, the header's
     * summary whole (it says what the verdicts say, wrapping at 800 px rather than being cut); a screenshot of each
     * ({@code dashboard-VIEW-WIDTH.png}; the 1400 px verdicts view also {@code dashboard.png}) goes to
     * target/screenshots, or to docs/images with {@code ./siteflow screenshots} ({@link Browser#readmeImage}).
     */
    @Test
    void everyViewAt1400And800PixelsKeepsWordsAndTheHeaderWhole() throws Exception {
        String summary = "FAIL: 1 of 3 servers below the 90% DB share · 1 PASS · 1 INSUFFICIENT";
        for (int width : new int[] {1400, 800}) {
            resize(width, 1000);
            for (String v : VIEWS) {
                view(v);
                awaitDrawn(v);
                assertThat(browser.driver.executeScript(Browser.BROKEN_WORDS)).as(v + " at " + width + " px").isEqualTo(List.of());
                assertThat(browser.driver.executeScript(SUMMARY_LAYOUT)).as(v + " at " + width + " px")
                        .isEqualTo(List.of(summary, false, true));
                browser.screenshotTo(Browser.readmeImage("dashboard-" + v + "-" + width));
            }
        }
        java.nio.file.Files.copy(Browser.readmeImage("dashboard-verdicts-1400"), Browser.readmeImage("dashboard"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        resize(1400, 1000);
    }

    /** Sets the window so that its inside is {@code width} × {@code height} ({@link Browser#resize}). */
    static void resize(int width, int height) {
        browser.resize(width, height);
    }

    /** Waits until the view's data and charts are on the page. */
    static void awaitDrawn(String v) {
        String css = switch (v) {
            case "verdicts" -> ".spark canvas";
            case "traffic" -> "#traffic-addresses tbody tr";
            case "links" -> "#links-rtt canvas";
            case "talkers" -> "#talkers-table tbody tr";
            case "agents" -> "#agents-table tbody tr";
            case "alerts" -> "#alerts-list li";
            default -> "#rules-defaults";
        };
        browser.waiting().until(x -> !x.findElements(By.cssSelector("#view-" + v + " " + css)).isEmpty()
                || !x.findElements(By.cssSelector(css)).isEmpty());
    }
}
