package io.siteflow.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.ParseResult;

/**
 * deploy/compose/compose.yaml (three brokers on SASL_SSL, two processors, an agent replaying a capture), the
 * secrets it mounts from deploy/compose/secrets.sh, and deploy/image/Containerfile: what siteflow accepts and what
 * the image promises. ComposeIT (system-tests) runs them.
 */
class ComposeFileTest {
    private static final Pattern DEFAULTED = Pattern.compile("\\$\\{[A-Z_]+:-([^}]*)}");
    private static final List<String> SERVICES = List.of("broker1", "broker2", "broker3", "processor1", "processor2",
            "agent");
    private static final String BROKERS = "broker1:9092,broker2:9092,broker3:9092";
    private final JsonNode compose = Yaml.yaml("compose/compose.yaml");
    private final JsonNode services = compose.get("services");

    /** {@code ${X:-default}} as Compose reads it when no variable is set. */
    private static String defaulted(String word) {
        Matcher m = DEFAULTED.matcher(word);
        return m.replaceAll(r -> Matcher.quoteReplacement(r.group(1)));
    }

    private List<String> command(String service) {
        List<String> out = new ArrayList<>();
        for (String w : Yaml.strings(services.get(service).get("command"))) {
            out.add(defaulted(w));
        }
        return out;
    }

    private static String after(List<String> words, String option) {
        return words.get(words.indexOf(option) + 1);
    }

    @Test
    void hasThreeBrokersTwoProcessorsAndAnAgentOfTheOneImage() {
        assertThat(Yaml.fieldNames(services)).containsExactlyElementsOf(SERVICES);
        for (String s : SERVICES) {
            assertThat(defaulted(services.get(s).get("image").asText())).as(s).isEqualTo("localhost/siteflow:latest");
        }
    }

    @Test
    void everyContainerRunsAsTheImagesUserWithoutCapabilitiesOnAReadOnlyRoot() {
        for (String s : SERVICES) {
            JsonNode service = services.get(s);
            assertThat(service.get("read_only").asBoolean()).as(s).isTrue();
            assertThat(Yaml.strings(service.get("cap_drop"))).as(s).containsExactly("ALL");
            assertThat(service.has("cap_add")).as(s).isFalse();
            assertThat(service.has("user")).as(s).isFalse();
            assertThat(service.has("privileged")).as(s).isFalse();
            assertThat(Yaml.strings(service.get("tmpfs"))).as(s).containsExactly("/tmp");
        }
    }

    @Test
    void brokersFormOneKraftClusterWithTheSecretsListenerAndData() {
        List<String> voters = new ArrayList<>();
        for (int id = 1; id <= 3; id++) {
            String name = "broker" + id;
            List<String> cmd = command(name);
            ParseResult broker = SiteflowCli.parseSubcommand(cmd);

            assertThat(broker.commandSpec().name()).isEqualTo("broker");
            assertThat(after(cmd, "--node-id")).isEqualTo(Integer.toString(id));
            assertThat(after(cmd, "--cluster-id")).isEqualTo(after(command("broker1"), "--cluster-id"));
            assertThat(after(cmd, "--advertised")).isEqualTo(name + ":9092");
            assertThat(after(cmd, "--listen")).isEqualTo("0.0.0.0:9092");
            assertThat(after(cmd, "--broker-config")).isEqualTo("/etc/siteflow/secrets/broker.properties");
            assertThat(after(cmd, "--scram-credentials")).isEqualTo("/etc/siteflow/secrets/scram.txt");
            assertThat(Yaml.strings(services.get(name).get("volumes"))).containsExactly(
                    "${SITEFLOW_SECRETS:-./secrets}:/etc/siteflow/secrets:ro",
                    name + "-data:" + after(cmd, "--data-dir"));
            assertThat(services.get(name).get("hostname").asText()).isEqualTo(name);
            voters.add(after(cmd, "--voters"));
        }
        assertThat(voters).containsOnly("1@broker1:9093,2@broker2:9093,3@broker3:9093");
    }

    @Test
    void processorsReachTheBrokersOnSaslSslAndOnlyTheFirstPublishesItsPortOnLoopback() {
        for (String name : List.of("processor1", "processor2")) {
            List<String> cmd = command(name);

            assertThat(SiteflowCli.parseSubcommand(cmd).commandSpec().name()).isEqualTo("process");
            assertThat(after(cmd, "--bootstrap")).isEqualTo(BROKERS);
            assertThat(after(cmd, "--kafka-config")).isEqualTo("/etc/siteflow/secrets/processor.properties");
            assertThat(after(cmd, "--advertised-host")).isEqualTo(name);
            assertThat(after(cmd, "--http-bind")).isEqualTo("0.0.0.0");
            assertThat(Yaml.strings(services.get(name).get("volumes")))
                    .contains("${SITEFLOW_SITES:-../conf/sites.yaml}:" + after(cmd, "--sites") + ":ro");
        }
        List<String> first = command("processor1");
        assertThat(Yaml.strings(services.get("processor1").get("ports")).stream().map(ComposeFileTest::defaulted))
                .containsExactly("127.0.0.1:8080:" + after(first, "--http-port"));
        assertThat(services.get("processor2").has("ports")).isFalse();
        assertThat(DeployFiles.path("compose/../conf/sites.yaml")).isRegularFile();
    }

    @Test
    void agentReplaysTheCaptureOnceAfterTheFirstProcessorIsHealthy() {
        JsonNode agent = services.get("agent");
        List<String> cmd = command("agent");
        ParseResult capture = SiteflowCli.parseSubcommand(cmd);

        assertThat(capture.commandSpec().name()).isEqualTo("capture");
        assertThat(capture.matchedOptionValue("-r", (Object) null)).hasToString("/var/lib/siteflow/capture.pcap");
        assertThat(after(cmd, "--bootstrap")).isEqualTo(BROKERS);
        assertThat(after(cmd, "--kafka-config")).isEqualTo("/etc/siteflow/secrets/agent.properties");
        assertThat(agent.get("restart").asText()).isEqualTo("no");
        assertThat(String.join(" ", Yaml.strings(agent.get("entrypoint"))))
                .contains("until /opt/siteflow/bin/healthcheck processor1 >/dev/null; do sleep 2; done;",
                        "exec /opt/siteflow/bin/siteflow \"$$@\"");
    }

    @Test
    void everySecretAServiceReadsIsOneSecretsShWrites() {
        String script = DeployFiles.read("compose/secrets.sh");
        Pattern secret = Pattern.compile("/etc/siteflow/secrets/([a-z0-9_.]+)");
        List<String> read = new ArrayList<>();
        for (String s : SERVICES) {
            Matcher m = secret.matcher(String.join(" ", command(s)));
            while (m.find()) {
                read.add(m.group(1));
            }
        }
        assertThat(read).containsOnly("broker.properties", "scram.txt", "processor.properties", "agent.properties");
        for (String file : List.of("broker.properties", "scram.txt")) {
            assertThat(script).contains("> " + file);
        }
        assertThat(script).contains("for user in admin agent processor; do", "> \"$user.properties\"",
                "ssl.truststore.location=/etc/siteflow/secrets/truststore.p12",
                "ssl.keystore.location=/etc/siteflow/secrets/broker.p12",
                "-ext SAN=DNS:broker1,DNS:broker2,DNS:broker3,DNS:localhost");
    }

    @Test
    void containerfileBuildsTheDistributionOnTheLocalBaseAsANonRootUser() {
        String containerfile = DeployFiles.read("image/Containerfile");

        assertThat(containerfile).contains("ARG BASE=localhost/siteflow-base:bookworm\nFROM ${BASE}\n",
                "COPY bin/ /opt/siteflow/bin/", "COPY lib/ /opt/siteflow/lib/", "COPY conf/ /opt/siteflow/conf/",
                "COPY image/healthcheck /opt/siteflow/bin/healthcheck", "USER 10001:10001",
                "HEALTHCHECK --interval=15s --timeout=5s --start-period=120s --retries=3 "
                        + "CMD [\"/opt/siteflow/bin/healthcheck\"]",
                "ENTRYPOINT [\"/opt/siteflow/bin/siteflow\"]", "libpcap0.8 libbpf1");
        assertThat(DeployFiles.read("image/base.sh")).contains(
                "PACKAGES=openjdk-17-jre-headless,libpcap0.8,libbpf1", "debootstrap --variant=minbase");
    }
}
