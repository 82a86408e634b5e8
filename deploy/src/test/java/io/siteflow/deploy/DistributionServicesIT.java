package io.siteflow.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.awaitility.core.ConditionTimeoutException;
import org.awaitility.core.TerminalFailureException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The services of the distribution, started from the unpacked archive as the systemd units start them
 * (broker, then processor on loopback ports): lib/ holds everything they load at run time.
 */
class DistributionServicesIT {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @TempDir
    static Path dir;
    static Path home;
    private final List<Process> started = new ArrayList<>();

    @BeforeAll
    static void unpack() throws Exception {
        home = Distribution.unpack(dir);
    }

    @AfterEach
    void stop() throws InterruptedException {
        // the reverse of start order: the processor before the broker it uses
        for (int i = started.size() - 1; i >= 0; i--) {
            Process p = started.get(i);
            p.destroy();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
            }
        }
    }

    private Process start(String name, String... args) throws IOException {
        List<String> cmd = Stream.concat(Stream.of(home.resolve("bin/siteflow").toString()), Stream.of(args)).toList();
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(home.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve(name + ".log").toFile());
        pb.environment().clear();
        pb.environment().putAll(Distribution.plainJava());
        pb.environment().put("SITEFLOW_HEAP", "256m");
        Process p = pb.start();
        started.add(p);
        return p;
    }

    private static String log(String name) throws IOException {
        Path f = dir.resolve(name + ".log");
        return Files.exists(f) ? Files.readString(f) : "";
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static HttpResponse<String> get(int port, String path) {
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** Waits up to 2 minutes for {@code condition}; fails at once when the process ends, showing its log. */
    private static void awaitOrShowLog(String what, String name, Process p, Callable<Boolean> condition) throws IOException {
        try {
            await(what).atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(250))
                    .failFast(name + " exited", () -> !p.isAlive()).until(condition);
        } catch (ConditionTimeoutException | TerminalFailureException e) {
            throw new AssertionError(e.getMessage() + "\n" + name + " log:\n" + log(name), e);
        }
    }

    @Test
    void brokerAndProcessorFromTheArchiveServeHealthAndMetrics() throws Exception {
        Processes.Result help = Processes.runClean(home, Distribution.plainJava(),
                List.of(home.resolve("bin/siteflow").toString(), "--help"), 120);
        Assumptions.assumeTrue(help.output().contains(" process "),
                "this build of siteflow has no process command yet");
        int kafka = freePort();
        int controller = freePort();
        int http = freePort();

        Process broker = start("broker", "broker", "--port", "" + kafka, "--controller-port", "" + controller,
                "--data-dir", dir.resolve("kafka").toString());
        awaitOrShowLog("broker prints its bootstrap address", "broker", broker,
                () -> log("broker").contains("127.0.0.1:" + kafka));
        Process processor = start("processor", "process", "--bootstrap", "127.0.0.1:" + kafka,
                "--sites", "conf/sites.yaml", "--http-port", "" + http, "--state-dir", dir.resolve("state").toString());
        awaitOrShowLog("processor /health answers 200", "processor", processor, () -> {
            HttpResponse<String> r = get(http, "/health");
            return r != null && r.statusCode() == 200;
        });

        HttpResponse<String> metrics = get(http, "/metrics");
        assertThat(metrics).isNotNull();
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.body()).contains("siteflow_processor_records_in_total", "siteflow_processor_dlq_total");
        // the consumer lag the SiteflowConsumerLag alert reads (Kafka's client metric, bound by Micrometer)
        awaitOrShowLog("/metrics shows the consumer lag", "processor", processor, () -> {
            HttpResponse<String> r = get(http, "/metrics");
            return r != null && r.body().contains("kafka_consumer_fetch_manager_records_lag_max");
        });
    }
}
