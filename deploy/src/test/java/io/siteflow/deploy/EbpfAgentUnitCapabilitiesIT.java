package io.siteflow.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The capabilities siteflow-agent-ebpf.service grants are the ones {@code capture --backend ebpf} needs, no fewer:
 * the distribution's launcher run as an unprivileged user (nobody) with exactly the unit's
 * {@code AmbientCapabilities=} as ambient, inheritable and bounding set (setpriv, as systemd sets them), on the
 * loopback of a network namespace of its own. With all of them it captures; without any one of them it ends with
 * exit 1 and the load error. Root, libbpf1 and a kernel with BPF (5.12 or later) on this machine.
 */
class EbpfAgentUnitCapabilitiesIT {
    private static final String NETNS = "sfunitcaps" + ProcessHandle.current().pid();
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    static Path home;

    @BeforeAll
    static void unpackAndMakeANamespace() throws Exception {
        // nobody reads the unpacked distribution (@TempDir makes its directory 0700)
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        home = Distribution.unpack(dir);
        Processes.Result add = Processes.run(dir, Map.of(), List.of("ip", "netns", "add", NETNS), 60);
        assertThat(add.exitCode()).as(add.output()).isZero();
        Processes.Result up = Processes.run(dir, Map.of(), List.of("ip", "netns", "exec", NETNS, "ip", "link", "set",
                "lo", "up"), 60);
        assertThat(up.exitCode()).as(up.output()).isZero();
    }

    @AfterAll
    static void removeTheNamespace() throws Exception {
        Processes.run(dir, Map.of(), List.of("ip", "netns", "del", NETNS), 60);
    }

    /** The unit's ambient capabilities, e.g. {@code [CAP_BPF, CAP_PERFMON, CAP_NET_ADMIN]}. */
    static List<String> unitCapabilities() {
        return List.of(SystemdUnitsTest.unit("siteflow-agent-ebpf.service").value("Service", "AmbientCapabilities")
                .split(" "));
    }

    static Stream<String> eachUnitCapability() {
        return unitCapabilities().stream();
    }

    /** The capture command as nobody with exactly {@code caps} (setpriv's "-all,+bpf,..." form). */
    private static ProcessBuilder capture(List<String> caps, Path out, Path err) {
        String set = "-all" + caps.stream().map(c -> ",+" + c.substring("CAP_".length()).toLowerCase(Locale.ROOT))
                .collect(Collectors.joining());
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", NETNS, "setpriv", "--reuid=65534",
                "--regid=65534", "--clear-groups", "--inh-caps=" + set, "--ambient-caps=" + set,
                "--bounding-set=" + set, "--", home.resolve("bin/siteflow").toString(), "capture", "--backend", "ebpf",
                "-i", "lo", "--json", "--agent", "unit"));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().clear();
        pb.environment().putAll(Distribution.plainJava());
        pb.environment().put("PATH", Distribution.JAVA_BIN + ":/usr/sbin:/usr/bin:/sbin:/bin");
        pb.environment().put("SITEFLOW_NO_CDS", "1");
        pb.environment().put("HOME", dir.toString());
        return pb;
    }

    /** The capability set of /proc/PID/status as names, from its hexadecimal mask. */
    private static List<String> capabilities(String hex) {
        long mask = Long.parseLong(hex, 16);
        Map<Integer, String> names = Map.of(12, "CAP_NET_ADMIN", 13, "CAP_NET_RAW", 21, "CAP_SYS_ADMIN",
                38, "CAP_PERFMON", 39, "CAP_BPF");
        List<String> out = new ArrayList<>();
        for (int bit = 0; bit < 64; bit++) {
            if ((mask & (1L << bit)) != 0) {
                out.add(names.getOrDefault(bit, "capability " + bit));
            }
        }
        return out;
    }

    @Test
    void withExactlyTheUnitsCapabilitiesAnUnprivilegedAgentCapturesInTheKernel() throws Exception {
        assertThat(unitCapabilities()).containsExactly("CAP_BPF", "CAP_PERFMON", "CAP_NET_ADMIN");
        Path out = dir.resolve("all.json");
        Path err = dir.resolve("all.err");
        Process p = capture(unitCapabilities(), out, err).start();
        try {
            await().atMost(Duration.ofMinutes(3)).until(() -> !p.isAlive()
                    || Files.readString(err).contains("capturing on lo (ebpf: flows aggregated in the kernel)\n"));
            assertThat(p.isAlive()).as(Files.readString(err)).isTrue();
            Map<String, String> status = Files.readAllLines(Path.of("/proc/" + p.pid() + "/status")).stream()
                    .filter(l -> l.contains(":\t")).collect(Collectors.toMap(l -> l.substring(0, l.indexOf(':')),
                            l -> l.substring(l.indexOf('\t') + 1), (a, b) -> a));
            // the JVM the launcher exec'd, as nobody, holding these three and nothing else
            assertThat(status.get("Uid")).isEqualTo("65534\t65534\t65534\t65534");
            for (String set : List.of("CapEff", "CapPrm", "CapAmb", "CapBnd")) {
                assertThat(capabilities(status.get(set))).as(set)
                        .containsExactlyInAnyOrderElementsOf(unitCapabilities());
            }
            Processes.Result send = Processes.run(dir, Map.of(), List.of("ip", "netns", "exec", NETNS, "bash", "-c",
                    "for i in 1 2 3; do echo hello > /dev/udp/127.0.0.1/5353; done"), 60);
            assertThat(send.exitCode()).as(send.output()).isZero();
        } finally {
            p.destroy();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
            }
        }

        assertThat(p.exitValue()).as(Files.readString(err)).isZero();
        List<JsonNode> udp = new ArrayList<>();
        for (String line : Files.readAllLines(out)) {
            JsonNode r = JSON.readTree(line);
            if (r.get("proto").asInt() == 17) {
                udp.add(r);
            }
        }
        // three datagrams from three sockets: three flows to 127.0.0.1:5353, each seen leaving and arriving on lo
        assertThat(udp).extracting(r -> r.get("dst").asText() + ":" + r.get("dstPort").asInt() + " "
                + r.get("packets").asInt() + " packets " + r.get("bytes").asInt() + " bytes")
                .containsExactly("127.0.0.1:5353 2 packets 68 bytes", "127.0.0.1:5353 2 packets 68 bytes",
                        "127.0.0.1:5353 2 packets 68 bytes");
        assertThat(udp.stream().map(r -> r.get("srcPort").asInt()).distinct()).hasSize(3);
    }

    @ParameterizedTest
    @MethodSource("eachUnitCapability")
    void withoutAnyOneOfThemTheProgramIsNotLoaded(String missing) throws Exception {
        List<String> caps = unitCapabilities().stream().filter(c -> !c.equals(missing)).toList();
        Path out = dir.resolve(missing + ".json");
        Path err = dir.resolve(missing + ".err");

        Process p = capture(caps, out, err).start();
        boolean ended = p.waitFor(3, TimeUnit.MINUTES);
        if (!ended) {
            p.destroyForcibly().waitFor();
        }

        assertThat(ended).as(Files.readString(err)).isTrue();
        assertThat(p.exitValue()).isEqualTo(1);
        String cause = switch (missing) {
            // the verifier refuses the program's pointer arithmetic without CAP_PERFMON ("for !root")
            case "CAP_PERFMON" -> "Permission denied (EACCES) (the verifier refused it: without CAP_PERFMON it forbids"
                    + " the program's pointer arithmetic; needs CAP_PERFMON, or root)";
            default -> "Operation not permitted (EPERM) (needs CAP_BPF, CAP_PERFMON and CAP_NET_ADMIN, or root)";
        };
        List<String> lines = Arrays.asList(Files.readString(err).split("\n"));
        assertThat(lines.get(lines.size() - 1)).isEqualTo("siteflow capture: ebpf: loading the BPF program: " + cause
                + "; use --backend pcap where the in-kernel source cannot run");
        assertThat(out).isEmptyFile();
    }
}
