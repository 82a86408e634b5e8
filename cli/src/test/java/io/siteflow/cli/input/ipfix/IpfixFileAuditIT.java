package io.siteflow.cli.input.ipfix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.siteflow.cli.CommandRun;
import io.siteflow.cli.SiteflowCommand;
import io.siteflow.cli.collect.CollectChild;
import io.siteflow.cli.collect.PmacctdExport;
import io.siteflow.synth.CapturePoint;
import io.siteflow.synth.StretchedClusterScenario;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An IPFIX file of a real exporter's messages audits like the collector's JSON lines of the same messages: pmacctd
 * ({@code nfprobe}, IPFIX) exports a capture traffic-synth writes to a receiver in this test, which keeps every
 * datagram (concatenated, they are an RFC 5655 file) and forwards it to {@code siteflow collect --json} (a child JVM
 * of the {@code siteflow} command, stopped with SIGTERM after it counted every datagram). {@code siteflow audit} of
 * the file gives the same verdicts as {@code siteflow audit} of the JSON lines. Loopback only; every process is
 * stopped by its PID.
 */
class IpfixFileAuditIT {
    private static final Duration GUARD = Duration.ofSeconds(120);
    private static final Pattern DATAGRAMS = Pattern.compile("(\\d+) datagrams from 1 exporters");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void auditOfTheFileEqualsAuditOfTheCollectorsJsonLinesOfTheSameDatagrams() throws Exception {
        Path capture = dir.resolve("region2-edge.pcap");
        StretchedClusterScenario.builder().capturePoint(CapturePoint.regionEdge("region2", 0))
                .duration(Duration.ofSeconds(30)).build().write(capture);
        Path sites = dir.resolve("sites.yaml");
        Files.copy(Path.of(System.getProperty("siteflow.root", "..")).resolve("deploy/conf/sites.yaml"), sites);
        Path json = dir.resolve("flows.jsonl");
        Path ipfix = dir.resolve("flows.ipfix");
        Process collect = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", System.getProperty("java.class.path"), SiteflowCommand.class.getName(),
                "collect", "--listen", "127.0.0.1:0", "--json=" + json, "--agent", "edge-b").start();
        StringBuffer err = new StringBuffer();
        CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> CollectChild.readAll(collect, err));
        try (DatagramSocket receiver = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            int port = await().atMost(GUARD).until(() -> CollectChild.listeningPort(err, reader), p -> p > 0);
            ByteArrayOutputStream file = new ByteArrayOutputStream();
            AtomicBoolean exporterDone = new AtomicBoolean();
            CompletableFuture<Long> forwarded = CompletableFuture.supplyAsync(() -> forward(receiver, port, file,
                    exporterDone));
            PmacctdExport.export(dir, capture, receiver.getLocalPort(), 10);
            exporterDone.set(true);
            long datagrams = forwarded.get(GUARD.toSeconds(), TimeUnit.SECONDS);
            Files.write(ipfix, file.toByteArray());

            CollectChild.terminate(collect);
            assertThat(collect.waitFor(GUARD.toSeconds(), TimeUnit.SECONDS)).isTrue();
            reader.get(GUARD.toSeconds(), TimeUnit.SECONDS);
            assertThat(collect.exitValue()).as(err.toString()).isZero();
            Matcher received = DATAGRAMS.matcher(err);
            assertThat(received.find()).as(err.toString()).isTrue();
            assertThat(datagrams).isPositive();
            assertThat(Long.parseLong(received.group(1))).as("datagrams the collector read").isEqualTo(datagrams);
        } finally {
            collect.destroyForcibly();
        }

        CommandRun fromJson = CommandRun.of("audit", json.toString(), "--sites", sites.toString(), "--format", "json");
        CommandRun fromFile = CommandRun.of("audit", ipfix.toString(), "--sites", sites.toString(), "--format",
                "json");

        assertThat(fromJson.exitCode()).as(fromJson.err()).isZero();
        assertThat(fromFile.exitCode()).as(fromFile.err()).isZero();
        JsonNode verdicts = JSON.readTree(fromJson.out()).get("verdicts");
        assertThat(verdicts).isNotEmpty();
        assertThat(verdicts.get(0).get("crossBytes").asLong()).isPositive();
        assertThat(JSON.readTree(fromFile.out()).get("verdicts")).isEqualTo(verdicts);
    }

    /**
     * Keeps and forwards every datagram until pmacctd has exited and its socket buffer is drained (no datagram for
     * 0.5 s after that); their number.
     */
    private static long forward(DatagramSocket receiver, int collectPort, ByteArrayOutputStream file,
            AtomicBoolean exporterDone) {
        byte[] buf = new byte[65536];
        long n = 0;
        try (DatagramSocket out = new DatagramSocket()) {
            receiver.setSoTimeout(500);
            InetSocketAddress collect = new InetSocketAddress(InetAddress.getLoopbackAddress(), collectPort);
            while (true) {
                DatagramPacket p = new DatagramPacket(buf, buf.length);
                try {
                    receiver.receive(p);
                } catch (SocketTimeoutException e) {
                    if (exporterDone.get()) {
                        return n;
                    }
                    continue;
                }
                byte[] d = Arrays.copyOf(p.getData(), p.getLength());
                file.write(d, 0, d.length);
                out.send(new DatagramPacket(d, d.length, collect));
                n++;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
