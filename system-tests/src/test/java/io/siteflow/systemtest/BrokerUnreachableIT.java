package io.siteflow.systemtest;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.cli.CommandRun;
import io.siteflow.model.cli.ExitCodes;
import io.siteflow.broker.EmbeddedKafkaBroker;
import io.siteflow.synth.Endpoint;
import io.siteflow.synth.Frames;
import io.siteflow.synth.PcapWriter;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 point 5 and issue 17 defect 3: when Kafka cannot be used, the agent and the processor say which address
 * they tried and what failed, and the agent exits 1 when records were lost or are still unsent (saying how many and
 * where the spool is). A closed loopback port for "refused", a {@code .invalid} name for DNS, a real broker on a
 * plain-text listener for a client that speaks TLS, a read-only tmpfs (mounted by this test, as root) for a spool
 * that cannot be written.
 */
class BrokerUnreachableIT {
    private static final long T0 = 1_764_000_000_000_000_000L;
    private static final String SITES = """
            sites:
              region1: { cidrs: [10.1.0.0/16] }
              region2: { cidrs: [10.2.0.0/16] }
            """;

    @TempDir
    Path dir;

    /** A loopback port nothing listens on: bound, then closed. */
    private static String closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return "127.0.0.1:" + s.getLocalPort();
        }
    }

    /** {@code flows} UDP flows from wls3 to the database site, one record each. */
    private Path capture(int flows) throws IOException {
        Path file = dir.resolve("flows.pcap");
        try (PcapWriter w = PcapWriter.create(file, PcapWriter.Resolution.NANOS, 65535)) {
            for (int i = 0; i < flows; i++) {
                w.write(T0 + i * 1_000_000L, Frames.udp(Endpoint.of("10.2.0.20", 40000 + i),
                        Endpoint.of("10.1.0.10", 1521), i, new byte[50], 0, 50));
            }
        }
        return file;
    }

    private static String lastLines(String text, int n) {
        var lines = text.lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - n), lines.size()));
    }

    @Test
    void agentNamesTheRefusingAddressAndExitsOneWithTheRecordsKeptInTheSpool() throws IOException {
        String broker = closedPort();
        Path spool = dir.resolve("spool");

        CommandRun run = CommandRun.of("capture", "-r", capture(20).toString(), "--bootstrap", broker,
                "--spool-dir", spool.toString(), "--agent", "wls3");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.FAILURE);
        assertThat(lastLines(run.err(), 3)).isEqualTo("kafka: 0 records sent, 20 spooled, 0 replayed, 0 dropped, "
                + "0 rejected\n"
                + "siteflow capture: kafka " + broker + ": connection refused\n"
                + "siteflow capture: 20 records not sent, kept in the spool " + spool + "; the next run with "
                + "--spool-dir " + spool + " sends them first");
    }

    @Test
    void agentSaysWhenTheBrokerNameDoesNotResolve() throws IOException {
        CommandRun run = CommandRun.of("capture", "-r", capture(1).toString(), "--bootstrap",
                "no-such-broker.invalid:9092", "--spool-dir", dir.resolve("spool").toString());

        assertThat(run.exitCode()).isEqualTo(ExitCodes.FAILURE);
        assertThat(run.err()).isEqualTo(
                "siteflow capture: publish: kafka no-such-broker.invalid:9092: cannot resolve host name (DNS)\n");
    }

    @Test
    void agentAndProcessorSayWhenTheTlsHandshakeFails() throws IOException {
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.builder(dir.resolve("kafka")).build()) {
            broker.start();
            String expected = "kafka " + broker.bootstrap() + ": TLS handshake failed (Remote host terminated the "
                    + "handshake)";

            CommandRun agent = CommandRun.of("capture", "-r", capture(5).toString(), "--bootstrap", broker.bootstrap(),
                    "--kafka", "security.protocol=SSL", "--spool-dir", dir.resolve("spool").toString());
            CommandRun processor = CommandRun.of("process", "--bootstrap", broker.bootstrap(), "--kafka",
                    "security.protocol=SSL", "--sites", Files.writeString(dir.resolve("sites.yaml"), SITES).toString(),
                    "--http-port", "0");

            assertThat(agent.exitCode()).isEqualTo(ExitCodes.FAILURE);
            assertThat(agent.err()).contains("\nsiteflow capture: " + expected + "\n");
            assertThat(processor.exitCode()).isEqualTo(ExitCodes.FAILURE);
            assertThat(processor.err()).isEqualTo("siteflow process: " + expected + "\n");
        }
    }

    @Test
    void processorNamesTheRefusingAddress() throws IOException {
        String broker = closedPort();

        CommandRun run = CommandRun.of("process", "--bootstrap", broker, "--sites",
                Files.writeString(dir.resolve("sites.yaml"), SITES).toString(), "--http-port", "0");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.FAILURE);
        assertThat(run.err()).isEqualTo("siteflow process: kafka " + broker + ": connection refused\n");
    }

    /** Issue 17 defect 3: a read-only spool and no broker used to end with "500 dropped" and exit 0. */
    @Test
    void agentExitsOneAndSaysHowManyRecordsWereLost() throws Exception {
        Path spool = Files.createDirectory(dir.resolve("read-only"));
        mount("mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", spool.toString());
        try {
            String broker = closedPort();

            CommandRun run = CommandRun.of("capture", "-r", capture(500).toString(), "--bootstrap", broker,
                    "--spool-dir", spool.toString());

            assertThat(run.exitCode()).isEqualTo(ExitCodes.FAILURE);
            assertThat(lastLines(run.err(), 3)).isEqualTo("kafka: 0 records sent, 0 spooled, 0 replayed, 500 dropped, "
                    + "0 rejected\n"
                    + "siteflow capture: kafka " + broker + ": connection refused\n"
                    + "siteflow capture: 500 of 500 records lost (500 dropped: hand-off queue or spool full, or the "
                    + "spool not writable; 0 refused by the broker)");
        } finally {
            mount("umount", spool.toString());
        }
    }

    private static void mount(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(String.join(" ", command) + ": " + output).isZero();
    }
}
