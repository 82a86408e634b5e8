package io.siteflow.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Debian package built from this build's distribution archive (deploy/debian/build-deb.sh), installed on this
 * machine with dpkg as root, upgraded, removed and purged, in that order. Installing here rather than in a
 * debootstrap chroot: a chroot costs minutes and a mirror, and what the package does outside its own files is
 * small enough to undo exactly: the run starts only where no siteflow package, configuration or data is present,
 * purges the package at the end, and deletes the {@code siteflow} user when the run created it (Debian leaves
 * system users on purge); nothing of it is left. systemd is not PID 1 here: the units are verified, not started.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DebianPackageIT {
    private static final String UPSTREAM = Distribution.VERSION;
    /** The archive's version as the package's: "-" sorts as "~" (before the release). */
    private static final String VERSION = UPSTREAM.replace('-', '~');
    private static final String UPGRADE = VERSION + "+1";
    private static final List<String> UNITS = List.of("siteflow-agent.service", "siteflow-agent-ebpf.service",
            "siteflow-broker.service", "siteflow-processor.service");
    private static final List<String> CONFFILES = List.of("/etc/default/siteflow-agent",
            "/etc/default/siteflow-broker", "/etc/default/siteflow-processor", "/etc/siteflow/logback.xml",
            "/etc/siteflow/sites.yaml");
    /** Everything on this machine the package or its scripts may create. */
    private static final List<Path> LEFT_BEHIND = Stream.concat(Stream.of("/etc/siteflow", "/var/lib/siteflow",
            "/var/cache/siteflow", "/usr/share/siteflow", "/usr/share/doc/siteflow", "/usr/bin/siteflow"),
            CONFFILES.stream()).map(Path::of).toList();
    private static final String PLAIN_PATH = "/usr/sbin:/usr/bin:/sbin:/bin";

    @TempDir
    static Path dir;
    static Path deb;
    static Path upgradeDeb;
    static boolean userExisted;
    static Path home;

    @BeforeAll
    static void buildBothVersions() throws Exception {
        assertThat(run("id", "-u").output().strip()).as("dpkg -i needs root").isEqualTo("0");
        assertThat(run("dpkg-query", "-W", "siteflow").exitCode())
                .as("a siteflow package is installed on this machine: this test installs and purges its own")
                .isEqualTo(1);
        assertThat(LEFT_BEHIND).as("siteflow files on this machine that this test would remove")
                .allMatch(p -> !Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS));
        userExisted = run("getent", "passwd", "siteflow").exitCode() == 0;
        home = Distribution.unpack(dir);
        Path archive = Path.of(System.getProperty("siteflow.distribution",
                "target/siteflow-" + UPSTREAM + ".tar.gz")).toAbsolutePath();
        deb = build(archive, dir.resolve("v1"));
        upgradeDeb = build(archive, dir.resolve("v2"), "--version", UPGRADE);
    }

    private static Path build(Path archive, Path out, String... options) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(DeployFiles.path("debian/build-deb.sh").toString()));
        cmd.addAll(List.of(options));
        cmd.addAll(List.of(archive.toString(), out.toString()));
        Processes.Result r = Processes.runClean(dir, Map.of("PATH", PLAIN_PATH, "LANG", "C.UTF-8",
                "TMPDIR", dir.toString()), cmd, 300);
        assertThat(r.exitCode()).as(r.output()).isZero();
        return Path.of(r.output().strip());
    }

    @AfterAll
    static void leaveNothing() throws Exception {
        if (run("dpkg-query", "-W", "siteflow").exitCode() == 0) {
            dpkg("--purge", "siteflow");
        }
        if (!userExisted && run("getent", "passwd", "siteflow").exitCode() == 0) {
            run("userdel", "siteflow");
        }
        if (!userExisted && run("getent", "group", "siteflow").exitCode() == 0) {
            run("groupdel", "siteflow");
        }
        assertThat(run("getent", "passwd", "siteflow").exitCode()).isEqualTo(userExisted ? 0 : 2);
        assertThat(LEFT_BEHIND).allMatch(p -> !Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS));
    }

    private static Processes.Result run(String... cmd) throws IOException, InterruptedException {
        return Processes.runClean(Path.of("/"), Map.of("PATH", PLAIN_PATH, "LANG", "C.UTF-8"), List.of(cmd), 300);
    }

    /** dpkg with these arguments, once dpkg's lock is free (other jobs on this machine may run apt-get). */
    private static Processes.Result dpkg(String... args) {
        List<String> cmd = new ArrayList<>(List.of("dpkg"));
        cmd.addAll(List.of(args));
        AtomicReference<Processes.Result> result = new AtomicReference<>();
        await().atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofSeconds(2)).until(() -> {
            Processes.Result r = run(cmd.toArray(String[]::new));
            result.set(r);
            return !r.output().contains("lock was locked by another process");
        });
        return result.get();
    }

    private static String status() throws Exception {
        return run("dpkg-query", "-W", "-f=${Status} ${Version}", "siteflow").output();
    }

    private static List<String> lines(String text) {
        return text.lines().filter(l -> !l.isBlank()).toList();
    }

    @Test
    @Order(1)
    void thePackageIsNamedAndDescribedForDebian() throws Exception {
        assertThat(deb.getFileName()).hasToString("siteflow_" + VERSION + "_all.deb");
        assertThat(upgradeDeb.getFileName()).hasToString("siteflow_" + UPGRADE + "_all.deb");
        Processes.Result fields = run("dpkg-deb", "--field", deb.toString(), "Package", "Version", "Architecture",
                "Depends", "Recommends");
        Processes.Result conffiles = run("dpkg-deb", "--info", deb.toString(), "conffiles");
        Processes.Result owners = run("dpkg-deb", "--contents", deb.toString());

        assertThat(lines(fields.output())).containsExactly("Package: siteflow", "Version: " + VERSION,
                "Architecture: all",
                "Depends: openjdk-17-jre-headless | java17-runtime-headless, libpcap0.8, adduser",
                "Recommends: libbpf1");
        assertThat(lines(conffiles.output())).containsExactlyElementsOf(CONFFILES);
        // --root-owner-group: every entry root/root whoever built it
        assertThat(lines(owners.output())).isNotEmpty().allSatisfy(l -> assertThat(l.split("\\s+")[1])
                .isEqualTo("root/root"));
    }

    @Test
    @Order(2)
    void installsTheLauncherTheJarsTheUnitsAndTheConfigurationAndAddsTheSystemUser() throws Exception {
        Processes.Result install = dpkg("-i", deb.toString());

        assertThat(install.exitCode()).as(install.output()).isZero();
        assertThat(status()).isEqualTo("install ok installed " + VERSION);
        List<String> jars;
        try (Stream<Path> lib = Files.list(home.resolve("lib"))) {
            jars = lib.map(p -> "/usr/share/siteflow/lib/" + p.getFileName()).sorted().toList();
        }
        List<String> listed = lines(run("dpkg", "-L", "siteflow").output());
        assertThat(listed.stream().filter(f -> f.startsWith("/usr/share/siteflow/lib/")).sorted())
                .containsExactlyElementsOf(jars);
        assertThat(listed.stream().filter(f -> !f.startsWith("/usr/share/siteflow/lib/")).sorted()).containsExactly(
                "/.", "/etc", "/etc/default", "/etc/default/siteflow-agent", "/etc/default/siteflow-broker",
                "/etc/default/siteflow-processor", "/etc/siteflow", "/etc/siteflow/logback.xml",
                "/etc/siteflow/sites.yaml", "/lib", "/lib/systemd", "/lib/systemd/system",
                "/lib/systemd/system/siteflow-agent-ebpf.service", "/lib/systemd/system/siteflow-agent.service",
                "/lib/systemd/system/siteflow-broker.service", "/lib/systemd/system/siteflow-processor.service",
                "/usr", "/usr/bin", "/usr/bin/siteflow", "/usr/share", "/usr/share/doc", "/usr/share/doc/siteflow",
                "/usr/share/doc/siteflow/OPERATIONS.md", "/usr/share/doc/siteflow/changelog.Debian.gz",
                "/usr/share/doc/siteflow/copyright", "/usr/share/doc/siteflow/examples",
                "/usr/share/doc/siteflow/examples/agent-mtls.properties",
                "/usr/share/doc/siteflow/examples/agent-sasl_ssl.properties",
                "/usr/share/doc/siteflow/examples/broker-mtls.properties",
                "/usr/share/doc/siteflow/examples/broker-sasl_ssl.properties",
                "/usr/share/doc/siteflow/examples/processor-mtls.properties",
                "/usr/share/doc/siteflow/examples/processor-sasl_ssl.properties",
                "/usr/share/siteflow", "/usr/share/siteflow/bin", "/usr/share/siteflow/bin/jvm-options.sh",
                "/usr/share/siteflow/bin/siteflow", "/usr/share/siteflow/conf", "/usr/share/siteflow/lib");
        assertThat(Files.readSymbolicLink(Path.of("/usr/share/siteflow/conf"))).isEqualTo(Path.of("/etc/siteflow"));
        assertThat(Files.readString(Path.of("/etc/siteflow/sites.yaml"))).isEqualTo(DeployFiles.read("conf/sites.yaml"));
        assertThat(Files.readString(Path.of("/etc/default/siteflow-agent")))
                .isEqualTo(DeployFiles.read("conf/agent.env"));
        // postinst: a system user without a login, and the data directory only it reads
        String[] user = run("getent", "passwd", "siteflow").output().strip().split(":");
        assertThat(Integer.parseInt(user[2])).isLessThan(1000);
        assertThat(user[5]).isEqualTo("/var/lib/siteflow");
        assertThat(user[6]).isEqualTo("/usr/sbin/nologin");
        PosixFileAttributes data = Files.readAttributes(Path.of("/var/lib/siteflow"), PosixFileAttributes.class);
        assertThat(data.owner().getName()).isEqualTo("siteflow");
        assertThat(data.group().getName()).isEqualTo("siteflow");
        assertThat(PosixFilePermissions.toString(data.permissions())).isEqualTo("rwxr-x---");
    }

    @Test
    @Order(3)
    void theInstalledUnitsAreTheRepositorysWithThePackagesPathsAndSystemdAcceptsThem() throws Exception {
        for (String unit : UNITS) {
            String repository = DeployFiles.read("systemd/" + unit);
            String installed = Files.readString(Path.of("/lib/systemd/system", unit));
            assertThat(installed).as(unit).isEqualTo(repository
                    .replace("/opt/siteflow/bin/siteflow", "/usr/bin/siteflow")
                    .replace("file:/opt/siteflow/OPERATIONS.md", "file:/usr/share/doc/siteflow/OPERATIONS.md")
                    .replace("(ProtectSystem=strict leaves /opt read-only)", "(ProtectSystem=strict leaves /usr read-only)"));
            assertThat(installed).as(unit).doesNotContain("/opt/");
            assertThat(SystemdUnit.parse(unit, installed).value("Service", "ExecStart")).startsWith("/usr/bin/siteflow ");
        }
        SystemdUnit agent = SystemdUnit.parse("a", Files.readString(Path.of("/lib/systemd/system/siteflow-agent.service")));
        SystemdUnit ebpf = SystemdUnit.parse("e",
                Files.readString(Path.of("/lib/systemd/system/siteflow-agent-ebpf.service")));
        assertThat(agent.value("Service", "AmbientCapabilities")).isEqualTo("CAP_NET_RAW CAP_NET_ADMIN");
        assertThat(agent.value("Service", "CapabilityBoundingSet")).isEqualTo("CAP_NET_RAW CAP_NET_ADMIN");
        assertThat(ebpf.value("Service", "AmbientCapabilities")).isEqualTo("CAP_BPF CAP_PERFMON CAP_NET_ADMIN");
        assertThat(ebpf.value("Service", "CapabilityBoundingSet")).isEqualTo("CAP_BPF CAP_PERFMON CAP_NET_ADMIN");
        assertThat(agent.value("Service", "User")).isEqualTo("siteflow");

        List<String> verify = new ArrayList<>(List.of("systemd-analyze", "verify"));
        UNITS.forEach(u -> verify.add("/lib/systemd/system/" + u));
        Processes.Result r = Processes.runClean(Path.of("/"), Map.of("PATH", PLAIN_PATH, "LANG", "C.UTF-8",
                "SYSTEMD_LOG_COLOR", "0"), verify, 120);

        assertThat(r.output()).isEmpty();
        assertThat(r.exitCode()).isZero();
    }

    @Test
    @Order(4)
    void theInstalledLauncherRunsFromUsrBinWithDebiansJava() throws Exception {
        Processes.Result r = run("/usr/bin/siteflow", "--version");

        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(lines(r.output())).containsExactly("siteflow " + UPSTREAM);
    }

    @Test
    @Order(5)
    void anUpgradeKeepsAChangedConffileAndInstallsTheUnchangedOnesAgain() throws Exception {
        Path agentSettings = Path.of("/etc/default/siteflow-agent");
        String changed = Files.readString(agentSettings).replace("IFACE=ens3", "IFACE=eth9");
        Files.writeString(agentSettings, changed);

        Processes.Result upgrade = dpkg("-i", upgradeDeb.toString());

        assertThat(upgrade.exitCode()).as(upgrade.output()).isZero();
        assertThat(status()).isEqualTo("install ok installed " + UPGRADE);
        assertThat(Files.readString(agentSettings)).isEqualTo(changed).contains("\nIFACE=eth9\n");
        assertThat(Files.readString(Path.of("/etc/default/siteflow-processor")))
                .isEqualTo(DeployFiles.read("conf/processor.env"));
        assertThat(upgrade.output()).doesNotContain("Configuration file");
    }

    @Test
    @Order(6)
    void removeKeepsTheConfigurationAndTheData() throws Exception {
        Path spooled = Files.writeString(Files.createDirectories(Path.of("/var/lib/siteflow/spool"))
                .resolve("segment-0"), "records");

        Processes.Result remove = dpkg("-r", "siteflow");

        assertThat(remove.exitCode()).as(remove.output()).isZero();
        assertThat(status()).isEqualTo("deinstall ok config-files " + UPGRADE);
        assertThat(Path.of("/usr/bin/siteflow")).doesNotExist();
        assertThat(Path.of("/usr/share/siteflow")).doesNotExist();
        assertThat(Path.of("/lib/systemd/system/siteflow-agent.service")).doesNotExist();
        assertThat(CONFFILES).allMatch(f -> Files.isRegularFile(Path.of(f)));
        assertThat(Files.readString(Path.of("/etc/default/siteflow-agent"))).contains("\nIFACE=eth9\n");
        assertThat(spooled).hasContent("records");
    }

    @Test
    @Order(7)
    void purgeRemovesTheConfigurationTheDataAndTheCache() throws Exception {
        Files.writeString(Path.of("/etc/siteflow/kafka-client.properties"), "security.protocol=SSL\n");

        Processes.Result purge = dpkg("--purge", "siteflow");

        assertThat(purge.exitCode()).as(purge.output()).isZero();
        Processes.Result query = run("dpkg-query", "-W", "siteflow");
        assertThat(query.exitCode()).isEqualTo(1);
        assertThat(query.output().strip()).isEqualTo("dpkg-query: no packages found matching siteflow");
        assertThat(LEFT_BEHIND).allMatch(p -> !Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS));
    }
}
