package io.siteflow.systemtest.image;

import static io.siteflow.systemtest.image.Podman.podman;
import static io.siteflow.systemtest.image.Podman.podmanMayFail;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The image alone ({@link SiteflowImage}, built by {@code ./siteflow image}), each role in its own container of one
 * pod (they share the pod's loopback): {@code siteflow broker}, {@code siteflow process} with the site model and a
 * Kafka client properties file mounted, and a live {@code siteflow capture} on the pod's eth0. Every container runs
 * with a read-only root and {@code --cap-drop all}; the agent gets back exactly CAP_NET_RAW and CAP_NET_ADMIN.
 * Shown: {@code /health} answers 200 over the published 127.0.0.1 port and the image's HEALTHCHECK passes; podman
 * inspect reads back user 10001:10001, the read-only root and exactly those capabilities (none for the processor);
 * the agent, not root, captures with them. The pod, its containers and volumes are removed by name at the end.
 */
class ImageIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final String pod = "siteflow-it-image-" + UUID.randomUUID().toString().substring(0, 8);
    private final List<String> volumes = new ArrayList<>();

    @AfterEach
    void removePod() {
        podmanMayFail("pod", "rm", "--force", "--time", "5", pod);
        for (String v : volumes) {
            podmanMayFail("volume", "rm", "--force", v);
        }
        Podman.restoreIpForward();
    }

    @Test
    void eachRoleRunsAsNonRootOnAReadOnlyRootWithExactlyItsCapabilities() throws Exception {
        String image = SiteflowImage.get();
        int port = freePort();
        podman("pod", "create", "--name", pod, "--publish", "127.0.0.1:" + port + ":8080");
        Path sites = Files.copy(Podman.root().resolve("deploy/conf/sites.yaml"), dir.resolve("sites.yaml"));
        Path client = Files.writeString(dir.resolve("processor.properties"), "client.id=siteflow-image-it\n");

        run("broker", List.of("--no-healthcheck", "-v", volume("kafka") + ":/var/lib/siteflow/kafka"), image,
                "broker", "--port", "9092", "--data-dir", "/var/lib/siteflow/kafka");
        // the processor exits when no broker answers within 10 s at its start: it starts once the broker answers
        Awaitility.await("broker up").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1))
                .until(() -> logs("broker").contains("kafka broker up on 127.0.0.1:9092"));
        run("processor", List.of("-v", volume("state") + ":/var/lib/siteflow/state",
                "-v", sites + ":/etc/siteflow/sites.yaml:ro", "-v", client + ":/etc/siteflow/processor.properties:ro"),
                image, "process", "--bootstrap", "127.0.0.1:9092", "--sites", "/etc/siteflow/sites.yaml",
                "--kafka-config", "/etc/siteflow/processor.properties", "--http-port", "8080", "--http-bind",
                "0.0.0.0", "--http-insecure", "--state-dir", "/var/lib/siteflow/state");
        run("agent", List.of("--no-healthcheck", "--cap-add", "NET_RAW,NET_ADMIN",
                "-v", volume("spool") + ":/var/lib/siteflow/spool"), image,
                "capture", "-i", "eth0", "--bootstrap", "127.0.0.1:9092", "--agent", "image-it", "--spool-dir",
                "/var/lib/siteflow/spool");

        HttpClient http = HttpClient.newHttpClient();
        URI health = URI.create("http://127.0.0.1:" + port + "/health");
        Awaitility.await("/health 200 on the published port").atMost(Duration.ofMinutes(4))
                .pollInterval(Duration.ofSeconds(2)).ignoreExceptions().untilAsserted(() -> {
                    HttpResponse<String> r = http.send(HttpRequest.newBuilder(health).build(),
                            HttpResponse.BodyHandlers.ofString());
                    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
                    assertThat(JSON.readTree(r.body()).get("status").asText()).isEqualTo("UP");
                });
        // the image's HEALTHCHECK, run by podman in the container (no systemd here to run it on a timer)
        assertThat(podmanMayFail("healthcheck", "run", name("processor")).exit()).isZero();
        assertThat(logs("processor"))
                .contains("siteflow process: running as siteflow-processor, http on 0.0.0.0:8080");

        Awaitility.await("agent capturing").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1))
                .until(() -> logs("agent").contains("capturing on eth0"));
        assertThat(state("agent").get("Running").asBoolean()).isTrue();

        for (String role : List.of("broker", "processor", "agent")) {
            JsonNode c = inspect(role);
            assertThat(c.at("/Config/User").asText()).as(role).isEqualTo("10001:10001");
            assertThat(c.at("/HostConfig/ReadonlyRootfs").asBoolean()).as(role).isTrue();
            List<String> expected = role.equals("agent") ? List.of("CAP_NET_ADMIN", "CAP_NET_RAW") : List.of();
            assertThat(strings(c.get("EffectiveCaps"))).as(role + " effective").isEqualTo(expected);
            assertThat(strings(c.get("BoundingCaps"))).as(role + " bounding").isEqualTo(expected);
        }
        assertThat(podman("exec", name("processor"), "id").out().strip())
                .isEqualTo("uid=10001(siteflow) gid=10001(siteflow) groups=10001(siteflow)");
        Podman.Result write = podmanMayFail("exec", name("processor"), "touch", "/opt/siteflow/x");
        assertThat(write.exit()).isEqualTo(1);
        assertThat(write.err().strip()).isEqualTo("touch: cannot touch '/opt/siteflow/x': Read-only file system");
        // the capabilities are the agent process's own (ambient), not only the container's: it is not root
        assertThat(podman("exec", name("agent"), "grep", "^CapEff", "/proc/1/status").out().strip())
                .isEqualTo("CapEff:\t0000000000003000");
    }

    private void run(String role, List<String> options, String image, String... command) {
        List<String> args = new ArrayList<>(List.of("run", "--detach", "--pod", pod, "--name", name(role),
                "--read-only", "--tmpfs", "/tmp", "--cap-drop", "all"));
        args.addAll(options);
        args.add(image);
        args.addAll(List.of(command));
        podman(args.toArray(String[]::new));
    }

    /** What the container printed, standard output and error. */
    private String logs(String role) {
        Podman.Result r = podman("logs", name(role));
        return r.out() + r.err();
    }

    private String name(String role) {
        return pod + "-" + role;
    }

    private String volume(String what) {
        String v = pod + "-" + what;
        volumes.add(v);
        podman("volume", "create", v);
        return v;
    }

    private JsonNode inspect(String role) throws Exception {
        return JSON.readTree(podman("inspect", "--type", "container", name(role)).out()).get(0);
    }

    private JsonNode state(String role) throws Exception {
        return inspect(role).get("State");
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array != null) {
            array.forEach(n -> out.add(n.asText()));
        }
        return out;
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
