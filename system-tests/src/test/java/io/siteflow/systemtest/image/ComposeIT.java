package io.siteflow.systemtest.image;

import static io.siteflow.systemtest.image.Podman.podman;
import static io.siteflow.systemtest.image.Podman.podmanMayFail;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.siteflow.cli.CommandRun;
import io.siteflow.cli.DemoCommand;
import io.siteflow.processor.http.ApiJson;
import io.siteflow.rules.verdict.Verdict;
import io.siteflow.systemtest.pipeline.Offline;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * deploy/compose/compose.yaml run by podman-compose as its header says, on the image of {@link SiteflowImage}:
 * three {@code siteflow broker} nodes (KRaft) with a SASL_SSL client listener whose CA, stores and SCRAM passwords
 * deploy/compose/secrets.sh has just made, two processors, and an agent replaying the demo's capture
 * ({@link DemoCommand#sampleScenario}, 60 s) once. Shown: {@code GET /api/verdicts} on the published 127.0.0.1 port
 * equals {@code siteflow audit} of the capture (compared as ReplayMatchesAuditIT does: the API's verdicts as the
 * verdict JSON); the agent sent every record (nothing spooled); with broker2's container killed ({@code podman
 * kill}) the verdicts are still those, and again once it is started and has rejoined. Everything of the test's own
 * Compose project (containers, volumes, network) is removed by its name at the end, nothing else.
 */
class ComposeIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final String project = "siteflow-it-" + UUID.randomUUID().toString().substring(0, 8);
    private Map<String, String> env;

    @AfterEach
    void down() {
        if (env != null) {
            compose("down", "--volumes");
        }
        for (String id : podmanMayFail("ps", "--all", "--quiet", "--filter", "label=io.podman.compose.project="
                + project).out().split("\\s+")) {
            if (!id.isBlank()) {
                podmanMayFail("rm", "--force", id);
            }
        }
        podmanMayFail("network", "rm", project + "_default");
        Podman.restoreIpForward();
    }

    @Test
    void verdictsEqualTheAuditOfTheCaptureAndStaySoWhileABrokerIsDownAndBack() throws Exception {
        String image = SiteflowImage.get();
        Path root = Podman.root();
        Path secrets = dir.resolve("secrets");
        Podman.run(List.of(root.resolve("deploy/compose/secrets.sh").toString(), secrets.toString(), image), root,
                Map.of(), 300).orThrow(List.of("secrets.sh"));
        Path capture = dir.resolve("demo.pcap");
        DemoCommand.sampleScenario(Duration.ofSeconds(60)).write(capture);
        CommandRun audit = CommandRun.of("audit", capture.toString(), "--sites",
                root.resolve("deploy/conf/sites.yaml").toString(), "--format", "json");
        assertThat(audit.exitCode()).as(audit.err()).isZero();
        List<JsonNode> expected = Offline.list(JSON.readTree(audit.out()).get("verdicts"));
        assertThat(expected).extracting(v -> v.get("server").asText() + " " + v.get("verdict").asText())
                .containsExactly("10.2.0.20 PASS", "10.2.0.21 FAIL");

        int port = freePort();
        env = Map.of("SITEFLOW_IMAGE", image, "SITEFLOW_SECRETS", secrets.toString(), "SITEFLOW_CAPTURE",
                capture.toString(), "SITEFLOW_HTTP_PORT", Integer.toString(port));
        compose("up", "--detach").orThrow(List.of("podman-compose", "up"));
        URI verdicts = URI.create("http://127.0.0.1:" + port + "/api/verdicts");

        awaitVerdicts(verdicts, expected, Duration.ofMinutes(12));
        assertThat(inspect("agent").at("/State/ExitCode").asInt()).isZero();
        assertThat(logs("agent")).containsPattern("kafka: [1-9][0-9]* records sent, 0 spooled, 0 replayed, 0 dropped, "
                + "0 rejected");

        podman("kill", container("broker2"));
        Awaitility.await("broker2 stopped").atMost(Duration.ofMinutes(1))
                .until(() -> !inspect("broker2").at("/State/Running").asBoolean());
        assertThat(inspect("broker2").at("/State/ExitCode").asInt()).isEqualTo(137);
        awaitVerdicts(verdicts, expected, Duration.ofMinutes(3));

        String restarted = Long.toString(Instant.now().getEpochSecond() - 1);
        podman("start", container("broker2"));
        Awaitility.await("broker2 up again").atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofSeconds(2))
                .until(() -> logs("broker2", "--since", restarted).contains("kafka broker up on 0.0.0.0:9092"));
        assertThat(inspect("broker2").at("/State/Running").asBoolean()).isTrue();
        awaitVerdicts(verdicts, expected, Duration.ofMinutes(3));
    }

    /** Waits until {@code GET /api/verdicts} answers the verdicts of {@code expected} (the audit's verdict JSON). */
    private static void awaitVerdicts(URI verdicts, List<JsonNode> expected, Duration atMost) {
        HttpClient http = HttpClient.newHttpClient();
        Awaitility.await("API verdicts equal the audit's").atMost(atMost).pollInterval(Duration.ofSeconds(3))
                .ignoreExceptions().untilAsserted(() -> {
                    HttpResponse<String> r = http.send(HttpRequest.newBuilder(verdicts).build(),
                            HttpResponse.BodyHandlers.ofString());
                    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
                    List<Verdict> api = ApiJson.readList(r.body(), new TypeReference<List<Verdict>>() { });
                    assertThat(Offline.nodes(api)).isEqualTo(expected);
                });
    }

    private Podman.Result compose(String... args) {
        List<String> cmd = new ArrayList<>(List.of("podman-compose", "--project-name", project, "--file",
                Podman.root().resolve("deploy/compose/compose.yaml").toString()));
        cmd.addAll(List.of(args));
        return Podman.run(cmd, Podman.root(), env, 600);
    }

    private String container(String service) {
        return project + "_" + service + "_1";
    }

    private JsonNode inspect(String service) throws Exception {
        return JSON.readTree(podman("inspect", "--type", "container", container(service)).out()).get(0);
    }

    private String logs(String service, String... options) {
        List<String> args = new ArrayList<>(List.of("logs"));
        args.addAll(List.of(options));
        args.add(container(service));
        Podman.Result r = podman(args.toArray(String[]::new));
        return r.out() + r.err();
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
