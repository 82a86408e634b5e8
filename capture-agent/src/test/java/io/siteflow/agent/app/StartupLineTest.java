package io.siteflow.agent.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.agent.publish.kafka.KafkaPasswordKeysTest;
import io.siteflow.agent.publish.kafka.KafkaSinkConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The agent's start-up line ({@code capture: ...}, logged once by {@link AgentRunner}) never shows a secret. */
class StartupLineTest {
    private static String startupLine(String... args) {
        CaptureCommand command = new CaptureCommand();
        new CommandLine(command).parseArgs(args);
        return "capture: " + command.options().describe();
    }

    @Test
    void masksEveryKafkaSecretAndListsKafkaPropertiesInKeyOrder() {
        String line = startupLine("-i", "ens3", "-F", "10.1.0.0/16", "--agent", "wls3", "--bootstrap", "kafka1:9092",
                "--kafka", "sasl.oauthbearer.client.credentials.client.secret=s3cret",
                "--kafka", "sasl.oauthbearer.assertion.file.token=t0ken",
                "--kafka", "ssl.keystore.password=pw",
                "--kafka", "sasl.jaas.config=PlainLoginModule required password=pw2;",
                "--kafka", "linger.ms=5");

        assertThat(line).isEqualTo("capture: iface=ens3 remote=[10.1.0.0/16] agent=wls3 bootstrap=kafka1:9092"
                + " kafka.linger.ms=5 kafka.sasl.jaas.config=**** kafka.sasl.oauthbearer.assertion.file.token=****"
                + " kafka.sasl.oauthbearer.client.credentials.client.secret=**** kafka.ssl.keystore.password=****"
                + " snaplen=256 buffer=67108864 active=10s idle=30s maxFlows=262144 workers=1");
    }

    @Test
    void theOptionsRecordPrintsWhatTheStartupLineShows() {
        CaptureCommand command = new CaptureCommand();
        new CommandLine(command).parseArgs("-i", "ens3", "--agent", "wls3", "--bootstrap", "kafka1:9092",
                "--kafka", "ssl.key.password=pw");

        assertThat(command.options().toString()).isEqualTo("CaptureOptions[iface=ens3 remote=[] agent=wls3"
                + " bootstrap=kafka1:9092 kafka.ssl.key.password=**** snaplen=256 buffer=67108864 active=10s idle=30s"
                + " maxFlows=262144 workers=1]");
    }

    @Test
    void theKafkaSinkSettingsNeverPrintASecret() {
        KafkaSinkConfig c = KafkaSinkConfig.builder("kafka1:9092", Path.of("/var/spool/siteflow"))
                .clientProperties(Map.of("sasl.jaas.config", "x password=pw;", "acks", "all")).build();

        assertThat(c.toString()).contains("clientOverrides={acks=all, sasl.jaas.config=****}")
                .doesNotContain("pw");
    }

    @Test
    void masksEveryPropertyKafkaTypesAsPassword() {
        List<String> args = new ArrayList<>(List.of("-i", "ens3", "--agent", "wls3", "--bootstrap", "kafka1:9092"));
        List<String> keys = KafkaPasswordKeysTest.passwordKeys();
        keys.forEach(k -> args.addAll(List.of("--kafka", k + "=clear-" + k)));

        String line = startupLine(args.toArray(String[]::new));

        assertThat(line).doesNotContain("clear-");
        assertThat(keys).allSatisfy(k -> assertThat(line).contains(" kafka." + k + "=****"));
    }

    @Test
    void saysWhenTheServerNameIsLeftOut() {
        assertThat(startupLine("-r", "c.pcap", "--agent", "wls3", "--no-sni")).isEqualTo("capture: file=c.pcap"
                + " remote=[] agent=wls3 snaplen=256 buffer=67108864 active=10s idle=30s maxFlows=262144 workers=1 sni=off");
    }
}
