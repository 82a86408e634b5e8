package io.siteflow.processor.http;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.openqa.selenium.By;

/**
 * Dashboard load benchmark (run by {@code bench/ui-load.sh}, not by the test suites): the API server with
 * {@link SyntheticQueries} ({@code servers} audited servers, {@code pairs} host pairs) and a headless Debian
 * Chromium. Per run: navigation timing (DOMContentLoaded, load) and the page's own mark
 * {@code siteflow-rendered} (every view filled from the API); then the size and time of the main API answers.
 * Prints a Markdown table. Arguments: servers pairs runs.
 */
public final class UiLoadBenchmark {
    private UiLoadBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int servers = args.length > 0 ? Integer.parseInt(args[0]) : 500;
        int pairs = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 7;
        StaticQueries q = SyntheticQueries.create(servers, pairs, System.currentTimeMillis());
        try (ApiServer server = new ApiServer(ApiServer.Settings.loopback(0), q, () -> "").start();
             Browser browser = Browser.start(1600, 1000)) {
            List<double[]> page = new ArrayList<>();
            for (int r = 0; r <= runs; r++) {
                browser.driver.get("about:blank");
                browser.driver.get(server.url() + "/");
                browser.waiting().until(d -> "true".equals(d.findElement(By.tagName("body")).getDomAttribute("data-ready")));
                browser.waiting().until(d -> ((Number) browser.driver.executeScript(
                        "return performance.getEntriesByType('navigation')[0].loadEventEnd;")).doubleValue() > 0);
                @SuppressWarnings("unchecked")
                List<Number> t = (List<Number>) browser.driver.executeScript(
                        "const n = performance.getEntriesByType('navigation')[0];"
                                + "const f = performance.getEntriesByName('siteflow-fetched')[0];"
                                + "const m = performance.getEntriesByName('siteflow-rendered')[0];"
                                + "return [n.domContentLoadedEventEnd, n.loadEventEnd, f.startTime, m.startTime,"
                                + " document.querySelectorAll('article.card').length];");
                if (System.getenv("UI_LOAD_VERBOSE") != null) {
                    System.out.println(browser.driver.executeScript("return performance.getEntriesByType('mark')"
                            + ".map(m => m.name + '=' + m.startTime.toFixed(0)).join(' ');"));
                }
                if (r > 0) {
                    page.add(t.stream().mapToDouble(Number::doubleValue).toArray());
                }
            }
            browser.screenshot("ui-load-" + servers);
            System.out.printf("%n%d servers, %d host pairs, %d runs after one warm-up (ms, median / max)%n%n", servers, pairs, runs);
            System.out.println("| measure | median | max |");
            System.out.println("|---|---:|---:|");
            String[] names = {"DOMContentLoaded", "load event", "API answers in (siteflow-fetched)",
                "all views rendered (siteflow-rendered)"};
            for (int i = 0; i < names.length; i++) {
                int k = i;
                double[] v = page.stream().mapToDouble(a -> a[k]).sorted().toArray();
                System.out.printf("| %s | %.0f | %.0f |%n", names[i], v[v.length / 2], v[v.length - 1]);
            }
            System.out.printf("| verdict cards | %.0f | |%n", page.get(0)[4]);
            if (System.getenv("UI_LOAD_VERBOSE") != null) {
                page.forEach(a -> System.out.println(Arrays.toString(a)));
            }
            api(server.url(), new String[] {"verdicts", "talkers", "links", "agents", "alerts", "hosts",
                "trend?from=0&to=" + (System.currentTimeMillis() + 60_000)});
        }
    }

    private static void api(String base, String[] paths) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        System.out.println();
        System.out.println("| endpoint | bytes | median ms (5 calls) |");
        System.out.println("|---|---:|---:|");
        for (String p : paths) {
            double[] ms = new double[5];
            int size = 0;
            for (int i = 0; i < ms.length; i++) {
                long t0 = System.nanoTime();
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/api/" + p)).build(),
                        HttpResponse.BodyHandlers.ofString());
                ms[i] = (System.nanoTime() - t0) / 1e6;
                size = r.body().length();
            }
            Arrays.sort(ms);
            System.out.printf("| /api/%s | %d | %.1f |%n", p.replaceAll("\\?.*", ""), size, ms[2]);
        }
    }
}
