package io.siteflow.agent.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.siteflow.agent.flow.FlowSink;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.agent.metrics.AgentMetrics;
import io.siteflow.model.FlowRecord;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The collector's UDP source on loopback: datagrams of an exporter outside {@code --exporter} are refused and counted,
 * the accepted exporter's flows become records naming it, a stop flushes what is held, and the counts reach the
 * {@code siteflow_agent_collect_*} meters. A burst larger than the socket buffer, received while decoding is held,
 * waits in the receive pool and is decoded in full, a stop included; what the pool cannot take is counted exactly.
 */
class ExportSourceIT {

    private static void send(String from, int port, ByteBuffer datagram) throws Exception {
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getByName(from), 0))) {
            s.send(new DatagramPacket(datagram.array(), datagram.limit(), InetAddress.getLoopbackAddress(), port));
        }
    }

    @Test
    void refusesExportersOutsideTheListAndNamesTheAcceptedOneInItsRecords() throws Exception {
        CollectSettings settings = CollectSettings.defaults(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                List.of(InetAddress.getByName("127.0.0.2")), 1);
        List<FlowRecord> records = new CopyOnWriteArrayList<>();
        try (ExportSource source = ExportSource.open(settings, "edge-b", "run", FlowTableConfig.DEFAULTS);
                AgentMetrics metrics = AgentMetrics.start(null, null, source.readings(), source)) {
            source.registerMeters(metrics.registry());
            CompletableFuture<Void> run = CompletableFuture.runAsync(() -> {
                try {
                    source.run(FlowSink.to(records::add));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            ByteBuffer v5 = Datagram.v5(1, 0, 1_764_000_000L, 0, 0, 0, 0)
                    .v5Record(Datagram.ip("10.2.0.20"), Datagram.ip("10.1.0.10"), 3, 180, 0, 0, 40112, 1521, 0x18, 6)
                    .build();

            send("127.0.0.1", source.port(), v5);
            send("127.0.0.2", source.port(), v5);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> source.counters().refused() == 1 && source.counters().records() == 1);
            assertThat(records).isEmpty(); // held for the active timeout
            source.stop();
            run.get(30, TimeUnit.SECONDS);

            assertThat(records).singleElement().satisfies(r -> {
                assertThat(r.exporter()).isEqualTo("127.0.0.2");
                assertThat(r.observationDomain()).isZero();
                assertThat(r.iface()).isEqualTo("127.0.0.1:" + source.port());
                assertThat(r.src() + ":" + r.srcPort() + ">" + r.dst() + ":" + r.dstPort() + " " + r.bytes() + "B "
                        + r.packets() + "P").isEqualTo("10.2.0.20:40112>10.1.0.10:1521 180B 3P");
                assertThat(r.isFinal()).isTrue();
            });
            assertThat(source.stats().received()).isEqualTo(1);
            assertThat(source.summary()).containsExactly(
                    "127.0.0.1:" + source.port() + ": 1 datagrams from 1 exporters, 1 refused; 1 flow records, "
                            + "0 options records",
                    "lost by sequence numbers: 0 records (v5, IPFIX), 0 export packets (v9); 0 sequence resets; "
                            + "0 malformed",
                    "1 conversations, 0 evicted early",
                    "receive pool 128 MiB: 0 datagrams dropped (full), at most " + DatagramPool.entryBytes(72)
                            + " bytes held");
            assertThat(metrics.scrape()).contains("siteflow_agent_collect_refused_total 1.0",
                    "siteflow_agent_collect_datagrams_total 1.0", "siteflow_agent_collect_records_total 1.0",
                    "siteflow_agent_collect_malformed_total{kind=\"no_template\"} 0.0",
                    "siteflow_agent_collect_lost_total{unit=\"records\"} 0.0");
        }
    }

    @Test
    void readsNetFlowAndSflowFromTheirTwoSocketsAndNamesEachSocketInItsRecords() throws Exception {
        InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        CollectSettings d = CollectSettings.defaults(any, List.of(), 1);
        CollectSettings settings = new CollectSettings(any, List.of(), 1, d.templateLifetime(), d.maxTemplates(),
                d.maxDomains(), d.maxExporters(), d.receiveBufferBytes(), any);
        List<FlowRecord> records = new CopyOnWriteArrayList<>();
        try (ExportSource source = ExportSource.open(settings, "edge-b", "run", FlowTableConfig.DEFAULTS);
                AgentMetrics metrics = AgentMetrics.start(null, null, source.readings(), source)) {
            source.registerMeters(metrics.registry());
            CompletableFuture<Void> run = CompletableFuture.runAsync(() -> {
                try {
                    source.run(FlowSink.to(records::add));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            // the same conversation from the same exporter, once as NetFlow v5 and once as an sFlow sample
            ByteBuffer v5 = Datagram.v5(1, 0, 1_764_000_000L, 0, 0, 0, 0)
                    .v5Record(Datagram.ip("10.2.0.20"), Datagram.ip("10.1.0.10"), 3, 180, 0, 0, 40112, 1521, 0x18, 6)
                    .build();
            ByteBuffer sflow = new SflowDecoderTest.Sflow("10.9.0.1", 2, 1).flowSample(1, 10, 10, 0,
                    SflowDecoderTest.rawHeader(11, 60, 0, SflowDecoderTest.tcp("10.2.0.20", 40112, "10.1.0.10", 1521,
                            0x18, 60))).build();

            send("127.0.0.1", source.port(), v5);
            send("127.0.0.1", source.sflowPort(), sflow);
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> source.counters().records() == 1 && source.counters().sflowPackets() == 1);
            source.stop();
            run.get(30, TimeUnit.SECONDS);

            assertThat(records).extracting(r -> r.iface() + " " + r.src() + ":" + r.srcPort() + ">" + r.dst() + ":"
                    + r.dstPort() + " " + r.bytes() + "B " + r.packets() + "P " + r.frameBytes() + "F /"
                    + r.observationDomain() + " x" + r.sampled()).containsExactlyInAnyOrder(
                    "127.0.0.1:" + source.port() + " 10.2.0.20:40112>10.1.0.10:1521 180B 3P 0F /0 xnull",
                    "127.0.0.1:" + source.sflowPort() + " 10.2.0.20:40112>10.1.0.10:1521 600B 10P 600F /2 x10");
            assertThat(source.name()).isEqualTo("127.0.0.1:" + source.port() + " and 127.0.0.1:" + source.sflowPort()
                    + " (sFlow)");
            assertThat(source.stats().received()).isEqualTo(2);
            assertThat(source.summary()).contains("sFlow: 1 flow samples, 1 packets in flows, 0 not IP; 0 counter "
                    + "samples (0 interface counters); 0 skipped by length; 0 datagrams lost by sequence numbers; 0 "
                    + "dropped by agents");
            assertThat(metrics.scrape()).contains("siteflow_agent_collect_datagrams_total 2.0",
                    "siteflow_agent_collect_sflow_packets_total 1.0",
                    "siteflow_agent_collect_sflow_samples_total{type=\"flow\"} 1.0",
                    "siteflow_agent_collect_lost_total{unit=\"sflow_datagrams\"} 0.0");
        }
    }

    /** 30-record NetFlow v5 datagrams (1,464 bytes), each record its own conversation. */
    private static ByteBuffer v5Full(int n) {
        Datagram d = Datagram.v5(30, 0, 1_764_000_000L, 0, 30L * n, 0, 0);
        for (int i = 0; i < 30; i++) {
            d.v5Record(Datagram.ip("10.2.0.20"), Datagram.ip("10.1.0.10"), 1, 100, 0, 0, 10_000 + n % 1_500 * 30 + i,
                    1521, 0x18, 6);
        }
        return d.build();
    }

    private static CollectSettings small(int receivePoolBytes) {
        InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        CollectSettings d = CollectSettings.defaults(any, List.of(), 1);
        return new CollectSettings(any, List.of(), 1, d.templateLifetime(), d.maxTemplates(), d.maxDomains(),
                d.maxExporters(), 65_536, null, receivePoolBytes);
    }

    private static CompletableFuture<Void> runAsync(ExportSource source, List<FlowRecord> records) {
        return CompletableFuture.runAsync(() -> {
            try {
                source.run(FlowSink.to(records::add));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /**
     * Sends datagrams {@code from} to {@code to} (exclusive) in chunks well inside the socket buffer, each chunk once
     * the receiving thread has taken the one before (so the kernel drops none, however slow this machine is).
     */
    private static void burst(ExportSource source, DatagramSocket s, int from, int to) throws Exception {
        for (int n = from; n < to; n++) {
            ByteBuffer d = v5Full(n);
            s.send(new DatagramPacket(d.array(), d.limit(), InetAddress.getLoopbackAddress(), source.port()));
            if ((n + 1) % 16 == 0 || n + 1 == to) {
                long sent = n + 1;
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> source.pooled() + source.counters().dropped() == sent);
            }
        }
    }

    @Test
    void decodesInFullABurstLargerThanTheSocketBufferReceivedWhileDecodingIsHeldAndStopped() throws Exception {
        int count = 400;
        List<FlowRecord> records = new CopyOnWriteArrayList<>();
        try (ExportSource source = ExportSource.open(small(8 << 20), "edge-b", "run", FlowTableConfig.DEFAULTS);
                DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            source.pauseDecoding();
            CompletableFuture<Void> run = runAsync(source, records);

            burst(source, s, 0, count);
            assertThat((long) count * v5Full(0).limit()).isGreaterThan(4L * source.grantedReceiveBuffer());
            assertThat(source.counters().datagrams()).isZero(); // nothing decoded yet: all of it waits in the pool
            assertThat(UdpSockets.find(source.port()).drops()).isZero();
            source.stop(); // as SIGTERM does, while decoding is still held
            source.resumeDecoding();
            run.get(60, TimeUnit.SECONDS);

            assertThat(source.pooled()).isEqualTo(count);
            assertThat(source.counters().datagrams()).isEqualTo(count);
            assertThat(source.counters().records()).isEqualTo(30L * count);
            assertThat(source.counters().lostRecords()).isZero();
            assertThat(source.counters().dropped()).isZero();
            assertThat(records).hasSize(30 * count);
            assertThat(records.stream().mapToLong(FlowRecord::bytes).sum()).isEqualTo(100L * 30 * count);
            assertThat(source.summary()).last().isEqualTo("receive pool 8 MiB: 0 datagrams dropped (full), at most "
                    + count * DatagramPool.entryBytes(1_464) + " bytes held");
            assertThat(source.losses()).isEmpty();
        }
    }

    @Test
    void countsExactlyTheDatagramsThePoolCannotTakeAndTheirRecordsAsLostByTheSequenceNumbers() throws Exception {
        int fit = 100;
        int count = 250;
        List<FlowRecord> records = new CopyOnWriteArrayList<>();
        try (ExportSource source = ExportSource.open(small(fit * DatagramPool.entryBytes(1_464)), "edge-b", "run",
                FlowTableConfig.DEFAULTS);
                AgentMetrics metrics = AgentMetrics.start(null, null, source.readings(), source);
                DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            source.registerMeters(metrics.registry());
            source.pauseDecoding();
            CompletableFuture<Void> run = runAsync(source, records);

            burst(source, s, 0, count);
            assertThat(source.pooled()).isEqualTo(fit);
            assertThat(source.counters().dropped()).isEqualTo(count - fit);
            assertThat(UdpSockets.find(source.port()).drops()).isZero();
            source.resumeDecoding();
            await().atMost(Duration.ofSeconds(60)).until(() -> source.counters().records() == 30L * fit);
            burst(source, s, count, count + 1); // the exporter's next datagram shows the gap
            await().atMost(Duration.ofSeconds(60)).until(() -> source.counters().records() == 30L * (fit + 1));
            source.stop();
            run.get(60, TimeUnit.SECONDS);

            assertThat(source.counters().datagrams()).isEqualTo(count + 1);
            assertThat(source.counters().lostRecords()).isEqualTo(30L * (count - fit));
            assertThat(source.heartbeatCounters()).isEqualTo(new io.siteflow.model.wire.Heartbeat.Export(count + 1,
                    30L * (fit + 1), 30L * (count - fit), 0, 0, 0, count - fit, 0));
            assertThat(source.summary()).last().isEqualTo("receive pool " + fit * 1_480 + " bytes: " + (count - fit)
                    + " datagrams dropped (full), at most " + fit * 1_480 + " bytes held");
            assertThat(metrics.scrape()).contains("siteflow_agent_collect_dropped_total 150.0");
            assertThat(source.losses()).containsExactly((count - fit) + " of " + (count + 1) + " datagrams lost: "
                    + "dropped because the receive pool (" + fit * 1_480 + " bytes, --receive-buffer-mb) was full "
                    + "(decoding fell behind); their flow records were not written");
        }
    }

    /**
     * The loose end of a full pool at the stop: no next datagram shows the gap in the sequence numbers, so only the
     * drop count says what was lost; the run's losses name it (the run exits 1).
     */
    @Test
    void namesTheDatagramsDroppedByAPoolFullAtTheStopAsTheRunsLoss() throws Exception {
        int fit = 100;
        int count = 250;
        List<FlowRecord> records = new CopyOnWriteArrayList<>();
        try (ExportSource source = ExportSource.open(small(fit * DatagramPool.entryBytes(1_464)), "edge-b", "run",
                FlowTableConfig.DEFAULTS);
                DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            source.pauseDecoding();
            CompletableFuture<Void> run = runAsync(source, records);

            burst(source, s, 0, count);
            source.stop(); // as SIGTERM does, the pool still full
            source.resumeDecoding();
            run.get(60, TimeUnit.SECONDS);

            assertThat(source.counters().records()).isEqualTo(30L * fit);
            assertThat(records).hasSize(30 * fit);
            assertThat(source.counters().lostRecords()).isZero();
            assertThat(source.heartbeatCounters()).isEqualTo(new io.siteflow.model.wire.Heartbeat.Export(count,
                    30L * fit, 0, 0, 0, 0, count - fit, 0));
            assertThat(source.losses()).containsExactly("150 of 250 datagrams lost: dropped because the receive pool "
                    + "(148000 bytes, --receive-buffer-mb) was full (decoding fell behind); their flow records were "
                    + "not written");
        }
    }

    @Test
    void stopsWhileASenderNeverPausesAndDecodesAllItReceived() throws Exception {
        List<FlowRecord> records = new CopyOnWriteArrayList<>();
        java.util.concurrent.atomic.AtomicBoolean sending = new java.util.concurrent.atomic.AtomicBoolean(true);
        try (ExportSource source = ExportSource.open(small(8 << 20), "edge-b", "run", FlowTableConfig.DEFAULTS);
                DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            CompletableFuture<Void> run = runAsync(source, records);
            CompletableFuture<Void> sender = CompletableFuture.runAsync(() -> {
                for (int n = 0; sending.get(); n++) {
                    ByteBuffer d = v5Full(n);
                    try {
                        s.send(new DatagramPacket(d.array(), d.limit(), InetAddress.getLoopbackAddress(),
                                source.port()));
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }
            });
            await().atMost(Duration.ofSeconds(60)).until(() -> source.counters().records() >= 3_000);
            source.stop();
            run.get(60, TimeUnit.SECONDS); // while the sender still sends
            boolean stillSending = !sender.isDone();
            sending.set(false);
            sender.get(60, TimeUnit.SECONDS);

            assertThat(stillSending).isTrue();
            assertThat(source.counters().datagrams()).isEqualTo(source.pooled());
            assertThat(source.counters().records()).isEqualTo(30 * source.pooled());
            assertThat(records.stream().mapToLong(FlowRecord::bytes).sum()).isEqualTo(100 * 30 * source.pooled());
        }
    }
}
