package io.siteflow.systemtest.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.agent.publish.kafka.KafkaFlowSink;
import io.siteflow.agent.publish.kafka.KafkaSinkConfig;
import io.siteflow.model.FlowRecord;
import io.siteflow.broker.EmbeddedKafkaBroker;
import io.siteflow.broker.LogCapture;
import io.siteflow.broker.SecureBrokers;
import io.siteflow.broker.SiteflowAcls;
import io.siteflow.kafka.topics.SiteflowTopics;
import io.siteflow.broker.TestPki;
import io.siteflow.kafka.topics.TopicAdmin;
import io.siteflow.synth.SyntheticCluster;
import io.siteflow.rules.audit.AuditReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.acl.AclBinding;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutual TLS instead of SCRAM: the broker's client listener requires a certificate from the CA
 * ({@code ssl.client.auth=required}), {@code ssl.principal.mapping.rules} turn {@code CN=agent,OU=siteflow,...}
 * into {@code User:agent}, and {@code StandardAuthorizer} enforces {@link SiteflowAcls} for those principals. The
 * agent's publisher (key and certificate inline as PEM) and the processor (a PKCS12 key store from
 * {@code --kafka-config}) do their jobs, the verdicts equal the offline audit of the records sent, a client without a
 * certificate is refused and told why, and no log line carries a store password or the private key.
 */
class MutualTlsIT {
    private static final String APP = "it-mtls";

    @TempDir
    Path dir;

    @Test
    void agentAndProcessorRunOnCertificatesAndTheirAclsAlone() throws Exception {
        TestPki pki = TestPki.create(dir);
        TestPki.Pem agentKey = pki.clientPem("agent");
        List<FlowRecord> records = new ArrayList<>(SyntheticCluster.flows(90, 1_000, "mtls"));
        AuditReport expected = Offline.audit(SyntheticCluster.SITES, records, 60_000);
        Path sites = Files.writeString(dir.resolve("sites.yaml"), SyntheticCluster.SITES);
        try (LogCapture logs = LogCapture.of("kafka", "org.apache.kafka", "io.siteflow")) {
            try (EmbeddedKafkaBroker broker = SecureBrokers.mutualTls(dir.resolve("kafka"), pki).build()) {
                broker.start();
                try (Admin admin = Admin.create(broker.clientConfig())) {
                    TopicAdmin.ensureTopics(admin, SiteflowTopics.SINGLE_NODE);
                }
                List<AclBinding> acls = new ArrayList<>(SiteflowAcls.agent("User:agent"));
                acls.addAll(SiteflowAcls.processor("User:processor", APP));
                SecureBrokers.grant(broker, acls);

                Path processorConfig = SecureBrokers.write(dir.resolve("processor.properties"),
                        SecureBrokers.certificateClient(pki, "processor"));
                Map<String, String> agent = SecureBrokers.trusting(pki, "SSL");
                agent.put("ssl.keystore.type", "PEM");
                agent.put("ssl.keystore.key", agentKey.key());
                agent.put("ssl.keystore.certificate.chain", agentKey.chain());
                try (InProcessProcessor p = InProcessProcessor.start(broker.bootstrap(), sites, dir.resolve("state"),
                        APP, "--kafka-config", processorConfig.toString());
                        KafkaFlowSink sink = KafkaFlowSink.start(KafkaSinkConfig.builder(broker.bootstrap(),
                                dir.resolve("spool")).clientProperties(agent).build())) {
                    assertThat(sink.brokerProblem()).as("the agent's ACLs suffice").isEmpty();
                    records.forEach(sink::accept);
                    sink.flush();
                    Awaitility.await("verdicts").atMost(Topics.WAIT).ignoreExceptions().untilAsserted(() ->
                            assertThat(Offline.json(p.cumulativeVerdicts()))
                                    .containsExactlyElementsOf(Offline.json(expected.verdicts())));
                    assertThat(sink.stats().sent()).isEqualTo(records.size());
                }

                // no certificate: the broker ends the TLS handshake, and the agent says so
                try (KafkaFlowSink anonymous = KafkaFlowSink.start(KafkaSinkConfig.builder(broker.bootstrap(),
                        dir.resolve("spool-anonymous")).clientProperties(SecureBrokers.trusting(pki, "SSL")).build())) {
                    assertThat(anonymous.brokerProblem()).isEqualTo(Optional.of("kafka " + broker.bootstrap()
                            + ": TLS handshake failed (Failed to process post-handshake messages); this client has no "
                            + "certificate (ssl.keystore.*), which a listener with ssl.client.auth=required refuses"));
                }
            }
            List<String> lines = logs.lines();
            assertThat(lines).as("log lines").anyMatch(l -> l.contains("ssl.keystore.key=****"))
                    .anyMatch(l -> l.contains("ssl.keystore.password=****"));
            String keyBody = agentKey.key().lines().filter(l -> !l.startsWith("-----")).reduce("", String::concat);
            for (String secret : List.of(pki.password(), keyBody, agentKey.key().lines().skip(1).findFirst()
                    .orElseThrow())) {
                assertThat(lines).as("log lines with %s", secret).noneMatch(l -> l.contains(secret));
            }
        }
    }
}
