package io.siteflow.lab.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.siteflow.agent.app.AgentRunner;
import io.siteflow.agent.capture.CaptureStats;
import io.siteflow.agent.config.CaptureOptions;
import io.siteflow.agent.ebpf.EbpfFlowSource;
import io.siteflow.agent.ebpf.KernelCounters;
import io.siteflow.agent.flow.FlowSink;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.lab.NetnsLab;
import io.siteflow.model.Cidr;
import io.siteflow.model.FlowRecord;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The in-kernel source's own behaviour on a veth in namespaces the test creates: {@code -F} applied in the kernel (the
 * program's counters say what it left out), a full kernel map's overflow taken through the ring buffer, the filter of an agent
 * killed with SIGKILL removed by the next one, and a missing capability named with a hint at {@code --backend pcap}.
 */
class EbpfKernelIT {
    private static final Pattern PROGRAM_ID = Pattern.compile("siteflow_\\w+.* id (\\d+)");

    @TempDir
    Path dir;

    @Test
    void leavesTrafficOutsideTheNetworksInTheKernelAndSaysSoInItsCounters() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (NetnsLab lab = NetnsLab.create().offloadsOff().secondSubnet()) {
            String a2 = "10.98." + lab.subnet() + ".1";
            String b2 = "10.98." + lab.subnet() + ".2";
            LabTraffic kept = LabTraffic.to(lab, a2);
            LabTraffic outside = LabTraffic.to(lab, lab.addressA());
            EbpfFlowSource source = lab.call(lab.nsA(), () -> EbpfFlowSource.open(NetnsLab.IF_A,
                    List.of(Cidr.parse(b2 + "/32")), FlowTableConfig.DEFAULTS, "filter-it", "run"));
            List<FlowRecord> records = Collections.synchronizedList(new ArrayList<>());
            Future<?> run = pool.submit(() -> {
                source.run(FlowSink.to(records::add));
                return null;
            });
            try {
                kept.udp(b2, 300);
                outside.udp(lab.addressB(), 200);
                await("the program saw 500 packets").atMost(Duration.ofSeconds(20))
                        .until(() -> source.kernelCounters().seen() >= 500);
            } finally {
                source.stop();
                kept.close();
                outside.close();
            }
            run.get(30, TimeUnit.SECONDS);
            source.close();

            // and the first 4 datagrams of the kept flow's one direction as payload records (signatures)
            assertThat(source.kernelCounters()).isEqualTo(new KernelCounters(500, 0, 0, 200, 300, 1, 0, 0, 4, 0));
            assertThat(records).hasSize(1);
            FlowRecord r = records.get(0);
            assertThat(List.of(r.src(), r.dst())).containsExactlyInAnyOrder(a2, b2);
            assertThat(r.totalPackets()).isEqualTo(300);
            assertThat(r.isFinal()).isTrue();
            assertThat(tcFilters(lab)).doesNotContain("siteflow_");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void takesThePacketsOfFlowsAFullKernelMapCouldNotHoldThroughTheRingBuffer() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (NetnsLab lab = NetnsLab.create().offloadsOff()) {
            LabTraffic traffic = LabTraffic.to(lab, lab.addressA());
            // --max-flows 16: each kernel map holds 16 flows; nothing drains before run(), so the map stays full
            EbpfFlowSource source = lab.call(lab.nsA(), () -> EbpfFlowSource.open(NetnsLab.IF_A, List.of(),
                    FlowTableConfig.DEFAULTS.withMaxFlows(16), "full-it", "run"));
            List<FlowRecord> records = Collections.synchronizedList(new ArrayList<>());
            try {
                for (int flow = 0; flow < 20; flow++) {
                    traffic.udp(lab.addressB(), 5); // a new socket, so a new flow, each time
                }
                await("the program saw 100 packets").atMost(Duration.ofSeconds(20))
                        .until(() -> source.kernelCounters().seen() >= 100);
                // 16 flows in the map, the 4 others' 20 packets in the overflow ring buffer, nothing lost; 4 payload
                // records of each of the 20 flows (those in the ring too)
                assertThat(source.kernelCounters()).isEqualTo(new KernelCounters(100, 0, 0, 0, 100, 16, 20, 0, 80, 0));
                assertThat(source.stats()).isEqualTo(new CaptureStats(100, 0, 0));
                io.micrometer.core.instrument.simple.SimpleMeterRegistry meters =
                        new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
                source.registerMeters(meters);
                assertThat(List.of("siteflow.agent.ebpf.map.full", "siteflow.agent.ebpf.payload.records",
                        "siteflow.agent.ebpf.payload.lost")).extracting(n -> meters.get(n).functionCounter().count())
                        .containsExactly(20.0, 80.0, 0.0);
                Future<?> run = pool.submit(() -> {
                    source.run(FlowSink.to(records::add));
                    return null;
                });
                source.stop();
                run.get(30, TimeUnit.SECONDS);
            } finally {
                source.stop();
                source.close();
                traffic.close();
            }
            // the agent's table holds 16 flows too: the ring's 4 flows evict 4 (ended early, whole)
            assertThat(records).hasSize(20).allSatisfy(r -> assertThat(r.totalPackets()).isEqualTo(5));
            assertThat(records.stream().map(r -> r.srcPort() + ">" + r.dstPort()).distinct()).hasSize(20);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void countsWhatNeitherTheMapNorTheRingBufferCouldTakeAsDroppedByKernel() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (NetnsLab lab = NetnsLab.create().offloadsOff()) {
            LabTraffic traffic = LabTraffic.to(lab, lab.addressA());
            EbpfFlowSource source = lab.call(lab.nsA(), () -> EbpfFlowSource.open(NetnsLab.IF_A, List.of(),
                    FlowTableConfig.DEFAULTS.withMaxFlows(16), "lost-it", "run"));
            List<FlowRecord> records = Collections.synchronizedList(new ArrayList<>());
            KernelCounters c;
            try {
                for (int flow = 0; flow < 16; flow++) {
                    traffic.udp(lab.addressB(), 1);
                }
                traffic.udp(lab.addressB(), 20_000); // the 1 MiB ring holds ~13,000 records of 80 bytes
                await("the program saw 20,016 packets").atMost(Duration.ofSeconds(20))
                        .until(() -> source.kernelCounters().seen() >= 20_016);
                c = source.kernelCounters();
                Future<?> run = pool.submit(() -> {
                    source.run(FlowSink.to(records::add));
                    return null;
                });
                source.stop();
                run.get(30, TimeUnit.SECONDS);
            } finally {
                source.stop();
                source.close();
                traffic.close();
            }
            System.out.printf("EbpfKernelIT: map full for %d packets, %d lost (the ring took the rest)%n", c.mapFull(),
                    c.lost());
            assertThat(c.seen()).isEqualTo(20_016);
            assertThat(c.mapFull()).isEqualTo(20_000);
            assertThat(c.lost()).isPositive();
            assertThat(c.counted() + c.lost()).isEqualTo(20_016);
            assertThat(source.stats()).isEqualTo(new CaptureStats(c.counted(), c.lost(), 0));
            assertThat(records.stream().mapToLong(FlowRecord::totalPackets).sum()).isEqualTo(c.counted());
            assertThat(records).hasSize(17);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void removesTheFiltersAnAgentKilledWithSigkillLeft() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (NetnsLab lab = NetnsLab.create().offloadsOff()) {
            Process killed = childAgent(lab, "killed");
            killed.destroyForcibly(); // SIGKILL: no shutdown hook runs
            assertThat(killed.waitFor(20, TimeUnit.SECONDS)).isTrue();
            String left = tcFilters(lab);
            assertThat(programIds(left)).as(left).hasSize(2);

            LabTraffic traffic = LabTraffic.to(lab, lab.addressA());
            Path json = dir.resolve("next.jsonl");
            StringWriter err = new StringWriter();
            AgentRunner next = new AgentRunner(CaptureOptions.builder().iface(NetnsLab.IF_A).backend("ebpf")
                    .agent("kill-it").json(json.toString()).spoolDir(dir.resolve("spool2")).build(),
                    new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
            Future<Integer> exit = pool.submit(() -> lab.call(lab.nsA(), next::run));
            String during;
            try {
                await("the next agent captures").atMost(Duration.ofSeconds(20))
                        .until(() -> exit.isDone() || err.toString().contains("capturing on sfa0"));
                during = tcFilters(lab);
                traffic.udp(lab.addressB(), 100);
                await("the next agent counts").atMost(Duration.ofSeconds(20)).until(() -> next.received() >= 100);
            } finally {
                next.stop();
                traffic.close();
            }
            assertThat(exit.get(30, TimeUnit.SECONDS)).as(err.toString()).isZero();

            assertThat(err.toString()).contains("capturing on sfa0 (ebpf: flows aggregated in the kernel; removed the "
                    + "filter a previous agent left on ingress, egress)");
            List<String> now = programIds(during);
            assertThat(now).as(during).hasSize(2).doesNotContainAnyElementsOf(programIds(left));
            assertThat(Files.readAllLines(json)).hasSize(1);
            assertThat(tcFilters(lab)).doesNotContain("siteflow_");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aSecondAgentLeavesALiveAgentsProgramAloneAndAutoTakesPcapBesideIt() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (NetnsLab lab = NetnsLab.create().offloadsOff()) {
            Process first = childAgent(lab, "first");
            try {
                List<String> before = programIds(tcFilters(lab));
                String held = "sfa0's ingress hook holds the program of another siteflow agent (pid " + first.pid() + ")";

                StringWriter err = new StringWriter();
                int refused = lab.call(lab.nsA(), () -> new AgentRunner(CaptureOptions.builder().iface(NetnsLab.IF_A)
                        .backend("ebpf").agent("second-it").json(dir.resolve("second.jsonl").toString())
                        .spoolDir(dir.resolve("spool2")).build(), new PrintWriter(new StringWriter(), true),
                        new PrintWriter(err, true)).run());
                assertThat(refused).as(err.toString()).isNotZero();
                assertThat(err.toString()).contains("ebpf: " + held + "; one in-kernel agent per interface: stop that "
                        + "one, or capture beside it with --backend pcap");
                assertThat(programIds(tcFilters(lab))).as("the first agent's program stays").isEqualTo(before);

                String beside = captureBriefly(pool, lab, CaptureOptions.builder().iface(NetnsLab.IF_A)
                        .agent("beside-it").json(dir.resolve("beside.jsonl").toString())
                        .spoolDir(dir.resolve("spool3")).build());
                assertThat(beside).contains("capturing on sfa0 (auto: pcap, ebpf cannot run here: " + held + ")");
                assertThat(programIds(tcFilters(lab))).isEqualTo(before);
            } finally {
                first.destroy(); // SIGTERM: the first agent detaches and exits
                assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
                pool.shutdownNow();
            }
            assertThat(tcFilters(lab)).doesNotContain("siteflow_");
        }
    }

    /** Runs an agent in namespace A until it captures, stops it; its standard error, once it exited 0. */
    private static String captureBriefly(ExecutorService pool, NetnsLab lab, CaptureOptions options) throws Exception {
        StringWriter err = new StringWriter();
        AgentRunner agent = new AgentRunner(options, new PrintWriter(new StringWriter(), true),
                new PrintWriter(err, true));
        Future<Integer> exit = pool.submit(() -> lab.call(lab.nsA(), agent::run));
        try {
            await("capturing on " + options.iface()).atMost(Duration.ofSeconds(20))
                    .until(() -> exit.isDone() || err.toString().contains("capturing on " + options.iface()));
        } finally {
            agent.stop();
        }
        assertThat(exit.get(30, TimeUnit.SECONDS)).as(err.toString()).isZero();
        return err.toString();
    }

    /** An ebpf agent in a child JVM in namespace A, once it captures (its log and records under {@code name}). */
    private Process childAgent(NetnsLab lab, String name) throws Exception {
        Path log = dir.resolve(name + ".log");
        Process child = lab.start(lab.nsA(), List.of(java(), "-cp", System.getProperty("java.class.path"),
                "io.siteflow.agent.app.AgentMain", "-i", NetnsLab.IF_A, "--backend", "ebpf",
                "--json=" + dir.resolve(name + ".jsonl"), "--spool-dir", dir.resolve(name + "-spool").toString()), log);
        await("the " + name + " agent captures").atMost(Duration.ofSeconds(30))
                .until(() -> !child.isAlive() || Files.readString(log).contains("capturing on sfa0"));
        assertThat(child.isAlive()).as(Files.readString(log)).isTrue();
        return child;
    }

    @Test
    void failsNamingTheMissingCapabilityAndSuggestingPcap() throws Exception {
        try (NetnsLab lab = NetnsLab.create()) {
            // the agent exits 1, which lab.exec reports with the command's output
            assertThatThrownBy(() -> lab.exec(lab.nsA(), "setpriv",
                    "--bounding-set=-bpf,-net_admin,-sys_admin,-perfmon", "--", java(), "-cp",
                    System.getProperty("java.class.path"), "io.siteflow.agent.app.AgentMain", "-i", NetnsLab.IF_A,
                    "--backend", "ebpf", "--json"))
                    .isInstanceOf(IOException.class).hasMessageContaining(": exit 1: ")
                    .hasMessageContaining("siteflow capture: ebpf: loading the BPF program: Operation not permitted "
                            + "(EPERM) (needs CAP_BPF, CAP_PERFMON and CAP_NET_ADMIN, or root); use --backend pcap where the "
                            + "in-kernel source cannot run");
            assertThat(tcFilters(lab)).doesNotContain("siteflow_");
        }
    }

    @Test
    void autoTakesEbpfWhereItCanRunAndElsePcapSayingWhy() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (NetnsLab lab = NetnsLab.create()) {
            StringWriter err = new StringWriter();
            AgentRunner runner = new AgentRunner(CaptureOptions.builder().iface(NetnsLab.IF_A).agent("auto-it")
                    .json(dir.resolve("auto.jsonl").toString()).spoolDir(Path.of("/nonexistent-spool")).spoolMaxMb(1)
                    .backend("auto").build(), new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
            Future<Integer> exit = pool.submit(() -> lab.call(lab.nsA(), runner::run));
            try {
                await("capturing").atMost(Duration.ofSeconds(20))
                        .until(() -> exit.isDone() || err.toString().contains("capturing on sfa0"));
            } finally {
                runner.stop();
            }
            assertThat(exit.get(30, TimeUnit.SECONDS)).as(err.toString()).isZero();
            Matcher release = Pattern.compile("^(\\d+\\.\\d+)").matcher(Files.readString(
                    Path.of("/proc/sys/kernel/osrelease")));
            assertThat(release.find()).isTrue();
            assertThat(err.toString()).contains("capturing on sfa0 (auto: ebpf, kernel " + release.group(1)
                    + ", CAP_BPF, CAP_PERFMON and CAP_NET_ADMIN, the program loads; ebpf: flows aggregated in the kernel)");

            // without CAP_BPF (and CAP_SYS_ADMIN, which would stand for it): libpcap, and the reason
            Path log = dir.resolve("auto-pcap.log");
            Process child = lab.start(lab.nsA(), List.of("setpriv", "--bounding-set=-bpf,-sys_admin,-perfmon", "--",
                    java(), "-cp", System.getProperty("java.class.path"), "io.siteflow.agent.app.AgentMain", "-i",
                    NetnsLab.IF_A, "--backend", "auto", "--json=" + dir.resolve("auto-pcap.jsonl"),
                    "--spool-dir", dir.resolve("spool").toString()), log);
            try {
                await("the child captures").atMost(Duration.ofSeconds(60))
                        .until(() -> !child.isAlive() || Files.readString(log).contains("capturing on sfa0"));
            } finally {
                child.destroy(); // SIGTERM: the agent stops and exits
            }
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(Files.readString(log)).contains("capturing on sfa0 (auto: pcap, ebpf cannot run here: no CAP_BPF "
                    + "(or CAP_SYS_ADMIN) and no CAP_PERFMON (or CAP_SYS_ADMIN) in the effective capabilities)");
            assertThat(tcFilters(lab)).doesNotContain("siteflow_");

            // a tunnel hands the TC hook bare IP packets: ebpf refuses it by name, auto takes pcap and says why
            lab.exec(lab.nsA(), "ip", "tuntap", "add", "dev", "sftun0", "mode", "tun");
            lab.exec(lab.nsA(), "ip", "link", "set", "sftun0", "up");
            String notEthernet = "sftun0 is not an Ethernet interface (ARPHRD type 65534): the program reads Ethernet "
                    + "frames";
            StringWriter tunErr = new StringWriter();
            int refused = lab.call(lab.nsA(), () -> new AgentRunner(CaptureOptions.builder().iface("sftun0")
                    .agent("tun-it").json(dir.resolve("tun.jsonl").toString()).backend("ebpf").build(),
                    new PrintWriter(new StringWriter(), true), new PrintWriter(tunErr, true)).run());
            assertThat(refused).as(tunErr.toString()).isNotZero();
            assertThat(tunErr.toString()).contains("ebpf: " + notEthernet
                    + "; use --backend pcap where the in-kernel source cannot run");
            String onTun = captureBriefly(pool, lab, CaptureOptions.builder().iface("sftun0").agent("tun-it")
                    .json(dir.resolve("tun-auto.jsonl").toString()).captureApi("libpcap").build());
            assertThat(onTun).contains("capturing on sftun0 (auto: pcap, ebpf cannot run here: " + notEthernet + ")");
            assertThat(tcFilters(lab)).doesNotContain("siteflow_");
        } finally {
            pool.shutdownNow();
        }
    }

    private static String java() throws Exception {
        return Path.of(ProcessHandle.current().info().command().orElseThrow()).toRealPath().toString();
    }

    /** {@code tc filter show} of both hooks of {@link NetnsLab#IF_A}. */
    private static String tcFilters(NetnsLab lab) throws Exception {
        return lab.exec(lab.nsA(), "tc", "filter", "show", "dev", NetnsLab.IF_A, "ingress")
                + lab.exec(lab.nsA(), "tc", "filter", "show", "dev", NetnsLab.IF_A, "egress");
    }

    private static List<String> programIds(String tcOutput) {
        List<String> ids = new ArrayList<>();
        Matcher m = PROGRAM_ID.matcher(tcOutput);
        while (m.find()) {
            ids.add(m.group(1));
        }
        return ids;
    }
}
