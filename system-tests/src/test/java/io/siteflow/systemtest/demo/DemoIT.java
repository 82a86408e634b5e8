package io.siteflow.systemtest.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the README's main command, {@code ./siteflow demo}, as a user does (the launcher, the jars built
 * before the tests by {@code siteflow test}), waits for the API, and finds the expected verdict for each
 * audited server of the sample: wls3 PASS, wls4 FAIL. Then stops it with SIGTERM, as Ctrl-C would.
 */
class DemoIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void demoShowsOnePassingAndOneFailingServer() throws Exception {
        Path root = Path.of(System.getProperty("siteflow.root", "../..")).toAbsolutePath().normalize();
        int port = freePort();
        Path log = dir.resolve("demo.log");
        Process demo = new ProcessBuilder(root.resolve("siteflow").toString(), "demo", "--http-port",
                Integer.toString(port), "--data-dir", dir.resolve("data").toString(), "--capture-seconds", "60")
                .directory(root.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            await("dashboard URL printed").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500))
                    .until(() -> !demo.isAlive() || Files.readString(log).contains("dashboard at http://127.0.0.1:" + port));
            assertThat(demo.isAlive()).as(Files.readString(log)).isTrue();
            HttpClient http = HttpClient.newHttpClient();
            Map<String, String> verdicts = new HashMap<>();
            await("verdicts for wls3 and wls4").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> {
                        verdicts.clear();
                        verdicts.putAll(verdicts(http, port));
                        return "PASS".equals(verdicts.get("wls3")) && "FAIL".equals(verdicts.get("wls4"));
                    });
            assertThat(verdicts).containsEntry("wls3", "PASS").containsEntry("wls4", "FAIL");
        } finally {
            demo.destroy();
            boolean ended = demo.waitFor(90, TimeUnit.SECONDS);
            if (!ended) {
                demo.destroyForcibly();
            }
            assertThat(ended).as("demo stops on SIGTERM").isTrue();
        }
        assertThat(demo.exitValue()).as(Files.readString(log)).isZero();
    }

    private static Map<String, String> verdicts(HttpClient http, int port) {
        Map<String, String> out = new HashMap<>();
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/api/verdicts")).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                return out;
            }
            JsonNode body = JSON.readTree(r.body());
            JsonNode list = body.isArray() ? body : body.path("verdicts");
            for (JsonNode v : list) {
                out.put(v.path("name").asText(), v.path("verdict").asText());
            }
        } catch (IOException e) {
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return out;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
