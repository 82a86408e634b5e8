package io.siteflow.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code siteflow topics check} against a real broker whose siteflow topics were made by hand, badly. */
class TopicsCheckIT {
    @TempDir
    Path dir;

    @Test
    void flagsEachUnsafeSettingAndExitsOne() throws Exception {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(dir.resolve("kafka")).build()) {
            broker.start();
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap()))) {
                admin.createTopics(List.of(
                        new NewTopic("siteflow.flows", 3, (short) 1).configs(Map.of("message.timestamp.type",
                                "CreateTime", "retention.ms", "259200000")),
                        new NewTopic("siteflow.sites", 1, (short) 1).configs(Map.of("cleanup.policy", "delete")),
                        new NewTopic("siteflow.verdicts", 3, (short) 1).configs(Map.of("min.insync.replicas", "2")),
                        new NewTopic("siteflow.agents", 3, (short) 1))).all().get(30, TimeUnit.SECONDS);
            }
            Path config = Files.writeString(dir.resolve("admin.properties"), "client.id=siteflow-topics-check\n");
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();

            int code = new CommandLine(new TopicsCommand()).setOut(new PrintWriter(out, true))
                    .setErr(new PrintWriter(err, true))
                    .execute("check", "--bootstrap", broker.bootstrap(), "--kafka-config", config.toString());

            assertThat(err.toString()).isEmpty();
            assertThat(out.toString()).isEqualTo("siteflow topics on " + broker.bootstrap() + " (1 broker):\n"
                    + "TOPIC              PARTITIONS REPLICAS  MIN.ISR  STATUS  FINDING\n"
                    + "siteflow.flows              3        1        1  unsafe  message.timestamp.type=CreateTime "
                    + "with retention.ms=259200000 (3 d): records of a replayed capture older than that are deleted "
                    + "as they arrive; use message.timestamp.type=LogAppendTime\n"
                    + "siteflow.agents             3        1        1  ok\n"
                    + "siteflow.sites              1        1        1  unsafe  cleanup.policy=delete: retention would "
                    + "delete the site model; it must be compacted (cleanup.policy=compact)\n"
                    + "siteflow.verdicts           3        1        2  unsafe  min.insync.replicas=2 > replication "
                    + "factor 1: every acks=all write fails\n"
                    + "siteflow.alerts             -        -        -  missing does not exist; siteflow process or "
                    + "broker creates it\n"
                    + "siteflow.isolation          -        -        -  missing does not exist; siteflow process or "
                    + "broker creates it\n"
                    + "siteflow.dlq                -        -        -  missing does not exist; siteflow process or "
                    + "broker creates it\n"
                    + "3 unsafe, 0 warnings, 3 missing: siteflow process refuses to start until the unsafe topics "
                    + "are fixed\n");
            assertThat(code).isEqualTo(1);
        }
    }

    @Test
    void anUnreachableClusterIsNamedAndExitsOne() throws Exception {
        int closed = Ports.free("127.0.0.1");
        StringWriter err = new StringWriter();

        int code = new CommandLine(new TopicsCommand()).setOut(new PrintWriter(new StringWriter(), true))
                .setErr(new PrintWriter(err, true))
                .execute("check", "--bootstrap", "127.0.0.1:" + closed, "--kafka", "default.api.timeout.ms=3000",
                        "--kafka", "request.timeout.ms=2000");

        assertThat(code).isEqualTo(1);
        assertThat(err.toString()).startsWith("siteflow topics check: 127.0.0.1:" + closed + ": cannot check topics: ");
    }
}
