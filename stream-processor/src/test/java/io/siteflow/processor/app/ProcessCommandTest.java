package io.siteflow.processor.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ProcessCommandTest {
    @TempDir
    Path dir;
    final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cl = ProcessCommand.commandLine(new ProcessCommand());
        cl.setErr(new PrintWriter(err, true));
        cl.setOut(new PrintWriter(new StringWriter(), true));
        return cl.execute(args);
    }

    @Test
    void printsEveryDiagnosticOfABadSiteModelAndExitsWithTwo() throws Exception {
        Path sites = Files.writeString(dir.resolve("sites.yaml"), "threshold: 2\nsites:\n  a: { cidrs: [10.1.0.0/33] }\n");

        int code = run("--bootstrap", "127.0.0.1:1", "--sites", sites.toString());

        assertThat(code).isEqualTo(2);
        assertThat(err.toString().lines()).containsExactly(
                sites + ":1:12: threshold: \"2\" is not a share (0..1)",
                sites + ":3:3: sites.a: site has no cidrs",
                sites + ":3:16: sites.a.cidrs[0]: 10.1.0.0/33: prefix length must be 0-32");
    }

    @Test
    void exitsWithTwoWhenTheSitesFileCannotBeRead() {
        Path missing = dir.resolve("missing.yaml");

        int code = run("--bootstrap", "127.0.0.1:1", "--sites", missing.toString());

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).startsWith("siteflow process: cannot read " + missing + ": ");
    }

    @Test
    void namesTheByteOffsetWhenTheSitesFileIsNotUtf8() throws Exception {
        Path sites = Files.write(dir.resolve("sites.yaml"),
                "sites: {}\n# caf\u00e9\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));

        int code = run("--bootstrap", "127.0.0.1:1", "--sites", sites.toString());

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("siteflow process: cannot read " + sites
                + ": byte 15: 0xE9 is not UTF-8 (a site model must be UTF-8)" + System.lineSeparator());
    }

    @Test
    void refusesASiteModelTooLargeForOneKafkaRecordBeforePublishingIt() throws Exception {
        String comment = "# " + "x".repeat(1000) + "\n";
        Path sites = Files.writeString(dir.resolve("sites.yaml"), "sites: {}\n" + comment.repeat(1100));

        int code = run("--bootstrap", "127.0.0.1:1", "--sites", sites.toString());

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("siteflow process: " + sites + " is 1103310 bytes; the site model "
                + "travels as one record on siteflow.sites, and Kafka takes records of at most 1047552 bytes of text "
                + "(the producer's max.request.size and the broker's message.max.bytes, 1 MiB, less room for the "
                + "record's framing)" + System.lineSeparator());
    }

    @Test
    void refusesToServeTheApiBeyondLoopbackWithoutATokenUnlessToldItIsInsecure() {
        Path missing = dir.resolve("missing.yaml");

        int refused = run("--bootstrap", "127.0.0.1:1", "--sites", missing.toString(), "--http-bind", "0.0.0.0");
        String refusal = err.toString();
        err.getBuffer().setLength(0);
        // the settings pass, so the command goes on to read the (missing) sites file
        int insecure = run("--bootstrap", "127.0.0.1:1", "--sites", missing.toString(), "--http-bind", "0.0.0.0",
                "--http-insecure");
        String insecureErr = err.toString();
        err.getBuffer().setLength(0);
        int token = run("--bootstrap", "127.0.0.1:1", "--sites", missing.toString(), "--http-bind", "0.0.0.0",
                "--http-token", "t0ken");
        int loopback = run("--bootstrap", "127.0.0.1:1", "--sites", missing.toString(), "--http-bind", "localhost");

        assertThat(refused).isEqualTo(64);
        assertThat(refusal).isEqualTo("siteflow process: --http-bind 0.0.0.0 serves the API beyond this host without "
                + "a token: set --http-token, or say --http-insecure to serve it to anyone who reaches the port"
                + System.lineSeparator());
        assertThat(insecure).isEqualTo(2);
        assertThat(insecureErr).startsWith("siteflow process: cannot read " + missing + ": ");
        assertThat(token).isEqualTo(2);
        assertThat(loopback).isEqualTo(2);
    }

    @Test
    void rejectsADurationItCannotRead() {
        int code = run("--bootstrap", "127.0.0.1:1", "--sites", "x.yaml", "--window", "soon");

        assertThat(code).isEqualTo(64);
        assertThat(err.toString()).contains("\"soon\" is not a duration (e.g. 500ms, 10s, 1m, 2h, 30d)");
    }

    @Test
    void rejectsTopicsWithoutPartitions() {
        int code = run("--bootstrap", "127.0.0.1:1", "--sites", "x.yaml", "--partitions", "0");

        assertThat(code).isEqualTo(64);
        assertThat(err.toString()).isEqualTo("siteflow process: --partitions: 0 must be at least 1"
                + System.lineSeparator());
    }

    @Test
    void readsDurationsWithUnitsOrInIsoForm() {
        DurationConverter c = new DurationConverter();
        assertThat(c.convert("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(c.convert("10s")).isEqualTo(Duration.ofSeconds(10));
        assertThat(c.convert("1m")).isEqualTo(Duration.ofMinutes(1));
        assertThat(c.convert("2h")).isEqualTo(Duration.ofHours(2));
        assertThat(c.convert("30d")).isEqualTo(Duration.ofDays(30));
        assertThat(c.convert("PT90S")).isEqualTo(Duration.ofSeconds(90));
    }

    @Test
    void masksSecretsInTheEffectiveConfiguration() {
        ProcessorSettings s = new ProcessorSettings("127.0.0.1:9092", Path.of("sites.yaml"), 8080, "0.0.0.0",
                "node1", "t0ken", Map.of("sasl.jaas.config", "user=x password=y", "ssl.key.password", "k",
                "linger.ms", "5"), dir, io.siteflow.processor.topology.TopologyConfig.DEFAULTS,
                new io.siteflow.kafka.topics.SiteflowTopics(6, (short) 3));

        Map<String, String> d = s.describe();

        assertThat(d).containsEntry("http.token", "****").containsEntry("sasl.jaas.config", "****")
                .containsEntry("ssl.key.password", "****").containsEntry("linger.ms", "5")
                .containsEntry("processing.guarantee", "exactly_once_v2")
                .containsEntry("application.server", "node1:8080")
                .containsEntry("application.id", "siteflow-processor")
                .containsEntry("replication.factor", "3")
                .containsEntry("commit.interval.ms", "500")
                .containsEntry("max.task.idle.ms", "-1")
                .containsEntry("num.standby.replicas", "1")
                .containsEntry("enable.transactional.statestores", "true")
                .containsEntry("topics", "6 partitions, replication 3");
        assertThat(d.toString()).doesNotContain("t0ken", "password=y");
        assertThat(s.toString()).isEqualTo("ProcessorSettings" + d).doesNotContain("t0ken", "password=y");
    }

    @Test
    void kafkaOptionsOverrideTheCommitInterval() {
        ProcessorSettings s = new ProcessorSettings("127.0.0.1:9092", Path.of("sites.yaml"), 0, "127.0.0.1",
                "127.0.0.1", "", Map.of("commit.interval.ms", "100"), dir,
                io.siteflow.processor.topology.TopologyConfig.DEFAULTS, io.siteflow.kafka.topics.SiteflowTopics.SINGLE_NODE);

        assertThat(s.streamsProperties().getProperty("commit.interval.ms")).isEqualTo("100");
    }

    @Test
    void theStreamsProducerWaitsFourMinutesForTheBrokerUnlessKafkaOptionsSayOtherwise() {
        ProcessorSettings waits = new ProcessorSettings("127.0.0.1:9092", Path.of("sites.yaml"), 0, "127.0.0.1",
                "127.0.0.1", "", Map.of(), dir, io.siteflow.processor.topology.TopologyConfig.DEFAULTS,
                io.siteflow.kafka.topics.SiteflowTopics.SINGLE_NODE);
        ProcessorSettings told = new ProcessorSettings("127.0.0.1:9092", Path.of("sites.yaml"), 0, "127.0.0.1",
                "127.0.0.1", "", Map.of("producer.max.block.ms", "5000"), dir,
                io.siteflow.processor.topology.TopologyConfig.DEFAULTS, io.siteflow.kafka.topics.SiteflowTopics.SINGLE_NODE);

        assertThat(waits.streamsProperties().getProperty("producer.max.block.ms")).isEqualTo("240000");
        assertThat(told.streamsProperties().getProperty("producer.max.block.ms")).isEqualTo("5000");
    }

    @Test
    void theKafkaConfigFileIsReadAndKafkaOptionsOverrideIt() throws Exception {
        Path config = java.nio.file.Files.writeString(dir.resolve("processor.properties"),
                "security.protocol=SASL_SSL\nnum.standby.replicas=2\nlinger.ms=20\n");
        ProcessCommand command = new ProcessCommand(null);
        new picocli.CommandLine(command).parseArgs("--bootstrap", "127.0.0.1:9092", "--sites", "sites.yaml",
                "--kafka-config", config.toString(), "--kafka", "linger.ms=5");

        java.util.Properties p = command.settings().streamsProperties();

        assertThat(p.getProperty("security.protocol")).isEqualTo("SASL_SSL");
        assertThat(p.getProperty("num.standby.replicas")).isEqualTo("2");
        assertThat(p.getProperty("linger.ms")).isEqualTo("5");
    }

    @Test
    void theStateDirectoryIsTheDaemonsWhenItIsInstalledElseUnderTheHomeDirectory() throws Exception {
        Path daemon = dir.resolve("var-lib-siteflow-processor");
        Path home = dir.resolve("home");

        assertThat(ProcessCommand.defaultStateDir(daemon, home))
                .isEqualTo(home.resolve(".local/state/siteflow/processor"));
        Files.createDirectories(daemon);
        assertThat(ProcessCommand.defaultStateDir(daemon, home)).isEqualTo(daemon);
    }

    @Test
    void helpSaysWhereTheStateDirectoryIs() {
        StringWriter out = new StringWriter();
        CommandLine cl = ProcessCommand.commandLine(new ProcessCommand(null));
        cl.setOut(new PrintWriter(out, true));
        cl.setUsageHelpWidth(1000);

        assertThat(cl.execute("--help")).isZero();

        assertThat(out.toString().replaceAll("\\s+", " ")).contains("--state-dir=DIR Kafka Streams state directory "
                + "(default: /var/lib/siteflow/processor when that directory exists and is writable, as the package "
                + "and the systemd unit make it; else ~/.local/state/siteflow/processor; here: "
                + ProcessCommand.defaultStateDir(Path.of("/var/lib/siteflow/processor"),
                        Path.of(System.getProperty("user.home"))) + ").");
    }
}
