package io.siteflow.lab.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.siteflow.lab.NetnsLab;
import io.siteflow.model.FlowRecord;
import io.siteflow.synth.T3Payloads;
import io.siteflow.synth.TnsPayloads;
import java.io.DataInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What needs payload, from the kernel: {@code --backend ebpf} beside {@code --backend pcap} on one veth, both started
 * before the traffic, over Oracle Net (TNS) calls, WebLogic T3 with JMS classes, a TLS ClientHello with a server name,
 * and a TNS connection whose CONNECT went before both started. Flow by flow: the same {@code l7}, {@code sni} and
 * number of DB calls; {@code dbCallMicros} within 200 us a call (the program stamps a packet when TC runs, libpcap
 * when the socket takes it: tens of microseconds apart here), and the packets and bytes of EbpfParityIT's comparison.
 */
class EbpfPayloadParityIT {
    private static final int CALLS = 20;

    @org.junit.jupiter.api.io.TempDir
    java.nio.file.Path dir;

    @Test
    void l7SniAndDbCallsEqualThePacketPathFlowByFlow() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try (NetnsLab lab = NetnsLab.create().offloadsOff()) {
            InetAddress a = InetAddress.getByName(lab.addressA());
            Random random = new Random(26);
            try (ServerSocket tns = lab.call(lab.nsA(), () -> new ServerSocket(1521, 8, a));
                    ServerSocket t3 = lab.call(lab.nsA(), () -> new ServerSocket(7001, 8, a));
                    ServerSocket tls = lab.call(lab.nsA(), () -> new ServerSocket(443, 8, a))) {
                // a pooled connection: CONNECT and ACCEPT before either backend runs
                Socket early = lab.call(lab.nsB(), () -> new Socket(a, 1521));
                Socket earlyServer = tns.accept();
                early.getOutputStream().write(TnsPayloads.connect("db1", 1521, "orcl"));
                readExactly(earlyServer.getInputStream(), TnsPayloads.connect("db1", 1521, "orcl").length);
                earlyServer.getOutputStream().write(TnsPayloads.accept());
                readExactly(early.getInputStream(), TnsPayloads.accept().length);

                LabTraffic udp = LabTraffic.to(lab, lab.addressA());
                Tcpdump tcpdump = Tcpdump.start(lab, lab.nsA(), NetnsLab.IF_A, dir, "");
                EbpfParityIT.Agent pcap = EbpfParityIT.Agent.start(pool, lab, dir.resolve("pcap.jsonl"), b -> b);
                EbpfParityIT.Agent ebpf = EbpfParityIT.Agent.start(pool, lab, dir.resolve("ebpf.jsonl"),
                        b -> b.backend("ebpf"));
                try {
                    CompletableFuture<Void> served = CompletableFuture.runAsync(() -> serveTns(tns, random), pool);
                    try (Socket c = lab.call(lab.nsB(), () -> new Socket(a, 1521))) {
                        c.getOutputStream().write(TnsPayloads.connect("db1", 1521, "orcl"));
                        readExactly(c.getInputStream(), TnsPayloads.accept().length);
                        calls(c, random);
                    }
                    served.get(30, TimeUnit.SECONDS);
                    CompletableFuture<Void> earlyCalls = CompletableFuture.runAsync(
                            () -> answerCalls(earlyServer, new Random(5)), pool);
                    calls(early, random);
                    earlyCalls.get(30, TimeUnit.SECONDS);
                    early.close();
                    assertThat(earlyServer.getInputStream().read()).isEqualTo(-1);
                    earlyServer.close();

                    CompletableFuture<Void> t3Served = CompletableFuture.runAsync(() -> serveT3(t3, random), pool);
                    try (Socket c = lab.call(lab.nsB(), () -> new Socket(a, 7001))) {
                        c.getOutputStream().write(T3Payloads.CLIENT_HELLO);
                        readExactly(c.getInputStream(), T3Payloads.SERVER_HELLO.length);
                        byte[] message = T3Payloads.message(random, 300, T3Payloads.JMS_CLASSES);
                        c.getOutputStream().write(message);
                        readExactly(c.getInputStream(), 4);
                    }
                    t3Served.get(30, TimeUnit.SECONDS);

                    CompletableFuture<Void> tlsServed = CompletableFuture.runAsync(() -> serveTls(tls), pool);
                    try (Socket c = lab.call(lab.nsB(), () -> new Socket(a, 443))) {
                        c.getOutputStream().write(clientHello("db-admin.region1.example"));
                        readExactly(c.getInputStream(), 9);
                    }
                    tlsServed.get(30, TimeUnit.SECONDS);
                    byte[] marker = LabTraffic.newMarker("payload-end");
                    udp.marker(lab.addressB(), marker);
                    await("tcpdump wrote the marker").atMost(Duration.ofSeconds(20))
                            .until(() -> tcpdump.packets().stream().anyMatch(p -> p.contains(marker)));
                    EbpfParityIT.awaitBoth(pcap, ebpf, tcpdump.packets().size());
                } finally {
                    pcap.runner().stop();
                    ebpf.runner().stop();
                    earlyServer.close();
                    udp.close();
                }
                tcpdump.stop();
                assertThat(pcap.exit().get(60, TimeUnit.SECONDS)).as(pcap.err().toString()).isZero();
                assertThat(ebpf.exit().get(60, TimeUnit.SECONDS)).as(ebpf.err().toString()).isZero();

                List<FlowRecord> fromPcap = EbpfParityIT.records(pcap.json());
                List<FlowRecord> fromEbpf = EbpfParityIT.records(ebpf.json());
                Map<String, List<String>> ours = payloadFields(fromEbpf);
                Map<String, List<String>> theirs = payloadFields(fromPcap);
                System.out.println("EbpfPayloadParityIT: pcap " + theirs + "\n  ebpf " + ours);
                assertThat(ours).isEqualTo(theirs);
                assertThat(EbpfParityIT.perFlow(fromEbpf)).isEqualTo(EbpfParityIT.perFlow(fromPcap));
                assertThat(ours.values()).extracting(v -> v.get(0)).containsExactlyInAnyOrder("oracle-tns",
                        "oracle-tns", "t3-jms", "tls");
                assertThat(ours.values()).filteredOn(v -> v.get(0).equals("tls"))
                        .containsExactly(List.of("tls", "db-admin.region1.example", "0"));
                // the new connection: its CONNECT/ACCEPT and 20 calls; the early one: its 20 calls
                assertThat(ours.values()).filteredOn(v -> v.get(0).equals("oracle-tns")).extracting(v -> v.get(2))
                        .containsExactlyInAnyOrder(String.valueOf(CALLS + 1), String.valueOf(CALLS));
                Map<String, Long> micros = dbMicros(fromEbpf);
                dbMicros(fromPcap).forEach((flow, us) -> {
                    long calls = Long.parseLong(ours.get(flow).get(2));
                    System.out.printf("EbpfPayloadParityIT: %s dbCallMicros pcap %d, ebpf %d over %d calls%n", flow,
                            us, micros.get(flow), calls);
                    assertThat(micros.get(flow)).as(flow).isCloseTo(us,
                            org.assertj.core.data.Offset.offset(200L * Math.max(1, calls)));
                });
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Per flow: l7, sni and the DB calls summed over its records. */
    private static Map<String, List<String>> payloadFields(List<FlowRecord> records) {
        Map<String, List<String>> out = new TreeMap<>();
        Map<String, Long> calls = new TreeMap<>();
        for (FlowRecord r : records) {
            if (r.proto() != 6) {
                continue;
            }
            String key = r.src() + ":" + r.srcPort() + " > " + r.dst() + ":" + r.dstPort();
            calls.merge(key, r.db().calls(), Long::sum);
            out.put(key, List.of(r.l7() == null ? "-" : r.l7().wireName(), r.sni() == null ? "-" : r.sni(), "0"));
        }
        out.replaceAll((k, v) -> List.of(v.get(0), v.get(1), String.valueOf(calls.get(k))));
        return out;
    }

    private static Map<String, Long> dbMicros(List<FlowRecord> records) {
        Map<String, Long> out = new TreeMap<>();
        for (FlowRecord r : records) {
            if (r.proto() == 6 && r.db().calls() > 0) {
                out.merge(r.src() + ":" + r.srcPort() + " > " + r.dst() + ":" + r.dstPort(), r.db().micros(),
                        Long::sum);
            }
        }
        return out;
    }

    /** {@value #CALLS} calls: a request of 200 bytes, a response of 3,000 (several segments) after 2 ms. */
    private static void calls(Socket c, Random random) {
        try {
            OutputStream out = c.getOutputStream();
            InputStream in = c.getInputStream();
            for (int i = 0; i < CALLS; i++) {
                out.write(TnsPayloads.data(random, 200, 3));
                readExactly(in, 3_000);
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void serveTns(ServerSocket server, Random random) {
        try (Socket s = server.accept()) {
            readExactly(s.getInputStream(), TnsPayloads.connect("db1", 1521, "orcl").length);
            s.getOutputStream().write(TnsPayloads.accept());
            answerCalls(s, random);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void answerCalls(Socket s, Random random) {
        try {
            for (int i = 0; i < CALLS; i++) {
                readExactly(s.getInputStream(), 200);
                TimeUnit.MILLISECONDS.sleep(2); // the database's service time
                s.getOutputStream().write(TnsPayloads.data(random, 3_000, 8));
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void serveT3(ServerSocket server, Random random) {
        try (Socket s = server.accept()) {
            readExactly(s.getInputStream(), T3Payloads.CLIENT_HELLO.length);
            s.getOutputStream().write(T3Payloads.SERVER_HELLO);
            readExactly(s.getInputStream(), 300);
            s.getOutputStream().write(new byte[] {0, 0, 0, 4});
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void serveTls(ServerSocket server) {
        try (Socket s = server.accept()) {
            readExactly(s.getInputStream(), clientHello("db-admin.region1.example").length);
            s.getOutputStream().write(new byte[] {0x16, 3, 3, 0, 4, 2, 0, 0, 0});
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void readExactly(InputStream in, int n) throws java.io.IOException {
        new DataInputStream(in).readFully(new byte[n]);
    }

    /** A TLS 1.2 ClientHello record with one cipher suite and the server_name extension. */
    static byte[] clientHello(String host) {
        byte[] name = host.getBytes(StandardCharsets.US_ASCII);
        int ext = 2 + 2 + 2 + 1 + 2 + name.length;
        int body = 2 + 32 + 1 + 2 + 2 + 1 + 1 + 2 + ext;
        ByteBuffer b = ByteBuffer.allocate(5 + 4 + body);
        b.put((byte) 0x16).putShort((short) 0x0301).putShort((short) (4 + body));
        b.put((byte) 1).put((byte) 0).putShort((short) body);
        b.putShort((short) 0x0303).put(new byte[32]).put((byte) 0);
        b.putShort((short) 2).putShort((short) 0x002F).put((byte) 1).put((byte) 0);
        b.putShort((short) ext).putShort((short) 0).putShort((short) (ext - 4)).putShort((short) (ext - 6))
                .put((byte) 0).putShort((short) name.length).put(name);
        return b.array();
    }
}
