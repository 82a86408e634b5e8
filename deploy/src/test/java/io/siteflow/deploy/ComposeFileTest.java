package io.siteflow.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.siteflow.kafka.topics.SiteflowTopics;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.ParseResult;

/** deploy/compose/compose.yaml and the Dockerfile: services, ports, and commands siteflow accepts. */
class ComposeFileTest {
    private static final Pattern DEFAULTED = Pattern.compile("\\$\\{[A-Z_]+:-([^}]*)}");
    private final JsonNode compose = Yaml.yaml("compose/compose.yaml");
    private final JsonNode services = compose.get("services");

    /** A command as Compose runs it when no variable is set: {@code ${X:-default}} becomes the default. */
    private List<String> command(String service) {
        List<String> out = new ArrayList<>();
        for (String w : Yaml.strings(services.get(service).get("command"))) {
            Matcher m = DEFAULTED.matcher(w);
            out.add(m.replaceAll(r -> Matcher.quoteReplacement(r.group(1))));
        }
        return out;
    }

    private static String after(List<String> words, String option) {
        return words.get(words.indexOf(option) + 1);
    }

    @Test
    void hasKafkaTheTopicsTheProcessorAndAnAgent() {
        assertThat(Yaml.fieldNames(services)).containsExactly("kafka", "topics", "processor", "agent");
        assertThat(services.get("kafka").get("image").asText()).startsWith("apache/kafka:");
        assertThat(services.get("topics").get("image").asText()).isEqualTo(services.get("kafka").get("image").asText());
        assertThat(services.get("agent").get("image").asText()).isEqualTo(services.get("processor").get("image").asText());
    }

    @Test
    void kafkaIsASingleKraftNodeWithAListenerForContainersAndOneForTheHost() {
        JsonNode env = services.get("kafka").get("environment");

        assertThat(env.get("KAFKA_PROCESS_ROLES").asText()).isEqualTo("broker,controller");
        assertThat(env.get("KAFKA_CONTROLLER_QUORUM_VOTERS").asText()).isEqualTo(env.get("KAFKA_NODE_ID").asText() + "@kafka:9093");
        assertThat(env.get("KAFKA_ADVERTISED_LISTENERS").asText()).isEqualTo("PLAINTEXT://kafka:9092,HOST://localhost:19092");
        assertThat(env.get("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR").asInt()).isEqualTo(1);
        assertThat(env.get("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR").asInt()).isEqualTo(1);
        String protocolMap = env.get("KAFKA_LISTENER_SECURITY_PROTOCOL_MAP").asText();
        for (String listener : env.get("KAFKA_LISTENERS").asText().split(",")) {
            assertThat(protocolMap).contains(listener.substring(0, listener.indexOf(':')) + ":PLAINTEXT");
        }
        assertThat(Yaml.strings(services.get("kafka").get("ports"))).containsExactly("19092:19092");
    }

    @Test
    void topicsServiceCreatesEverySiteflowTopicWithItsConfigs() {
        String script = String.join("\n", Yaml.strings(services.get("topics").get("command")));

        for (SiteflowTopics.Topic t : SiteflowTopics.SINGLE_NODE.topics()) {
            String line = script.lines().filter(l -> l.contains("--topic " + t.name() + " ")).findFirst()
                    .orElseThrow(() -> new AssertionError("no --topic " + t.name()));
            assertThat(line).contains("--partitions " + t.partitions());
            t.configs().forEach((k, v) -> assertThat(line).contains("--config " + k + "=" + v));
        }
        assertThat(services.get("processor").get("depends_on").get("topics").get("condition").asText())
                .isEqualTo("service_completed_successfully");
    }

    @Test
    void processorPublishesItsHttpPortAndReadsTheSampleSiteModel() {
        JsonNode processor = services.get("processor");
        List<String> cmd = command("processor");

        assertThat(cmd.get(0)).isEqualTo("process");
        assertThat(Yaml.strings(processor.get("ports"))).containsExactly(after(cmd, "--http-port") + ":" + after(cmd, "--http-port"));
        assertThat(after(cmd, "--bootstrap")).isEqualTo("kafka:9092");
        assertThat(after(cmd, "--http-bind")).isEqualTo("0.0.0.0");
        assertThat(Yaml.strings(processor.get("volumes")))
                .contains("../conf/sites.yaml:" + after(cmd, "--sites") + ":ro");
        assertThat(DeployFiles.path("compose/../conf/sites.yaml")).isRegularFile();
        assertThat(DeployFiles.path("compose/" + processor.get("build").get("context").asText() + "/Dockerfile"))
                .isRegularFile();
    }

    @Test
    void agentCapturesOnTheHostNetworkWithRawSocketCapabilitiesOnly() {
        JsonNode agent = services.get("agent");
        List<String> cmd = command("agent");

        assertThat(agent.get("network_mode").asText()).isEqualTo("host");
        assertThat(Yaml.strings(agent.get("cap_drop"))).containsExactly("ALL");
        assertThat(Yaml.strings(agent.get("cap_add"))).containsExactlyInAnyOrder("NET_RAW", "NET_ADMIN");
        assertThat(after(cmd, "--bootstrap")).isEqualTo("localhost:19092");

        ParseResult capture = SiteflowCli.parseSubcommand(cmd);
        assertThat((String) capture.matchedOptionValue("-i", null)).isEqualTo("eth0");
        assertThat((Integer) capture.matchedOptionValue("--metrics-port", 0)).isEqualTo(9464);
    }

    @Test
    void processorCommandIsAProcessSiteflowAccepts() {
        Assumptions.assumeTrue(SiteflowCli.commands().contains("process"),
                "this build of siteflow has no process command yet: " + SiteflowCli.commands());

        assertThat(SiteflowCli.parseSubcommand(command("processor")).commandSpec().name()).isEqualTo("process");
    }

    @Test
    void dockerfileCopiesTheDistributionAndRunsTheLaunchScript() {
        String dockerfile = DeployFiles.read("Dockerfile");

        assertThat(dockerfile).contains("COPY bin/ /opt/siteflow/bin/", "COPY lib/ /opt/siteflow/lib/",
                "COPY conf/ /opt/siteflow/conf/", "ENTRYPOINT [\"/opt/siteflow/bin/siteflow\"]", "libpcap0.8",
                "openjdk-17-jre-headless", "USER 10001:10001");
    }
}
