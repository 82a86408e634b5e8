package io.siteflow.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distribution archive that {@code mvn package} builds: unpacked into a temporary directory and run
 * with a plain {@code java} on PATH, no Maven, no JAVA_HOME.
 */
class DistributionIT {
    private static final String VERSION = Distribution.VERSION;

    @TempDir
    static Path unpacked;
    static Path home;

    @BeforeAll
    static void unpack() throws Exception {
        home = Distribution.unpack(unpacked);
    }

    private static Processes.Result siteflow(Map<String, String> env, String... args) throws Exception {
        List<String> cmd = Stream.concat(Stream.of(home.resolve("bin/siteflow").toString()), Stream.of(args)).toList();
        return Processes.runClean(home, env, cmd, 120);
    }

    private static Map<String, String> plainJava() {
        return Distribution.plainJava();
    }

    @Test
    void archiveHoldsTheLaunchScriptTheJarsTheSettingsAndTheDeployFiles() throws IOException {
        assertThat(home.resolve("bin/siteflow")).isExecutable();
        assertThat(home.resolve("bin/jvm-options.sh")).isRegularFile();
        assertThat(home.resolve("install.sh")).isExecutable();
        for (String f : List.of("conf/sites.yaml", "conf/logback.xml", "conf/agent.env", "conf/processor.env",
                "conf/broker.env", "systemd/siteflow-agent.service", "systemd/siteflow-processor.service",
                "systemd/siteflow-broker.service", "systemd/siteflow-agent-ebpf.service", "k8s/base/kustomization.yaml",
                "k8s/base/00-namespace.yaml", "k8s/base/40-processor-statefulset.yaml",
                "k8s/overlays/pcap/kustomization.yaml", "k8s/overlays/ebpf/kustomization.yaml",
                "k8s/overlays/ebpf/agent-ebpf.yaml",
                "compose/compose.yaml", "observability/prometheus.yml", "observability/alert-rules.yml",
                "observability/grafana-dashboard.json", "Dockerfile", "OPERATIONS.md")) {
            assertThat(home.resolve(f)).isRegularFile();
        }
        assertThat(Files.readString(home.resolve("conf/sites.yaml"))).isEqualTo(DeployFiles.read("conf/sites.yaml"));
        try (Stream<Path> lib = Files.list(home.resolve("lib"))) {
            List<String> jars = lib.map(p -> p.getFileName().toString()).toList();
            assertThat(jars).contains("siteflow-cli-" + VERSION + ".jar", "capture-agent-" + VERSION + ".jar",
                    "stream-processor-" + VERSION + ".jar", "flow-model-" + VERSION + ".jar",
                    "classifier-rules-" + VERSION + ".jar", "kafka-client-" + VERSION + ".jar",
                    "kafka-broker-" + VERSION + ".jar");
            assertThat(jars).anyMatch(j -> j.startsWith("picocli-")).anyMatch(j -> j.startsWith("logback-classic-"))
                    .anyMatch(j -> j.startsWith("kafka-clients-")).anyMatch(j -> j.startsWith("pcap4j-core-"));
            assertThat(jars).noneMatch(j -> j.startsWith("junit-") || j.startsWith("assertj-")
                    || j.startsWith("kubernetes-") || j.startsWith("deploy-"));
        }
    }

    @Test
    void helpRunsWithAPlainJavaOnPath() throws Exception {
        Processes.Result r = siteflow(plainJava(), "--help");

        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.output()).startsWith("Usage: siteflow ").contains("capture", "rules", "broker", "audit");
    }

    @Test
    void rulesCheckValidatesTheSampleSiteModel() throws Exception {
        Processes.Result r = siteflow(plainJava(), "rules", "check", "conf/sites.yaml");

        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.output()).startsWith("conf/sites.yaml: valid: 2 sites, 6 hosts, ");
    }

    @Test
    void siteflowHeapSetsTheHeapAndJavaOptsComeLast() throws Exception {
        Map<String, String> env = new java.util.HashMap<>(plainJava());
        env.put("SITEFLOW_HEAP", "64m");
        env.put("JAVA_OPTS", "-XshowSettings:vm");

        Processes.Result r = siteflow(env, "--version");

        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.output()).contains("Min. Heap Size: 64.00M", "Max. Heap Size: 64.00M");
    }

    @Test
    void javaHomeWinsOverPathAndGetsTheWholeJvmCommandLine(@TempDir Path fake) throws Exception {
        Path java = Files.createDirectories(fake.resolve("bin")).resolve("java");
        Files.writeString(java, "#!/bin/sh\necho \"fake java $*\"\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Map<String, String> env = new java.util.HashMap<>(plainJava());
        env.put("JAVA_HOME", fake.toString());
        env.put("SITEFLOW_HEAP", "2g");
        env.put("JAVA_OPTS", "-Dx=1");

        Processes.Result r = siteflow(env, "rules", "check", "conf/sites.yaml");

        assertThat(r.exitCode()).isZero();
        assertThat(r.output()).isEqualTo("fake java -XX:+UseParallelGC -XX:+ExitOnOutOfMemoryError"
                + " -Dorg.pcap4j.af.inet=2 -Dorg.pcap4j.af.inet6=10 -Dlogback.configurationFile=" + home
                + "/conf/logback.xml -Dsiteflow.home=" + home + " -Xms2g -Xmx2g -Dx=1 -cp " + home
                + "/lib/* io.siteflow.cli.SiteflowCommand rules check conf/sites.yaml\n");
    }

    @Test
    void runsThroughASymlinkAsInstallShLinksOptSiteflow() throws Exception {
        Path link = Files.createSymbolicLink(unpacked.resolve("siteflow"), home);
        List<String> cmd = List.of(link.resolve("bin/siteflow").toString(), "--version");

        Processes.Result r = Processes.runClean(unpacked, plainJava(), cmd, 120);

        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.output()).contains(VERSION);
    }

    @Test
    void installShInTheDistributionCopiesItWithoutAnArchive() throws Exception {
        Processes.Result r = Processes.run(home, Map.of(), List.of("bash", home.resolve("install.sh").toString(),
                "--dry-run"), 60);

        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(r.output()).contains("+ cp -a " + home + " /opt/siteflow-" + VERSION + "\n",
                "+ ln -sfn siteflow-" + VERSION + " /opt/siteflow\n",
                "+ install -m 0644 /opt/siteflow-" + VERSION + "/systemd/siteflow-agent.service"
                        + " /etc/systemd/system/siteflow-agent.service\n");
    }

    @Test
    void installBelowARootGivesAWorkingOptSiteflowAndKeepsSettingsOnUpgrade(@TempDir Path root) throws Exception {
        Path archive = Path.of(System.getProperty("siteflow.distribution",
                "target/siteflow-" + VERSION + ".tar.gz")).toAbsolutePath();
        List<String> install = List.of("bash", home.resolve("install.sh").toString(), "--root", root.toString(),
                archive.toString());

        Processes.Result first = Processes.run(root, Map.of(), install, 120);
        Files.writeString(root.resolve("etc/default/siteflow-agent"), "IFACE=bond0\n");
        Processes.Result second = Processes.run(root, Map.of(), install, 120);
        Processes.Result version = Processes.runClean(root, plainJava(),
                List.of(root.resolve("opt/siteflow/bin/siteflow").toString(), "--version"), 120);

        assertThat(first.exitCode()).as(first.output()).isZero();
        assertThat(second.exitCode()).as(second.output()).isZero();
        assertThat(Files.readSymbolicLink(root.resolve("opt/siteflow"))).isEqualTo(Path.of("siteflow-" + VERSION));
        assertThat(version.output()).contains(VERSION);
        assertThat(root.resolve("etc/siteflow/sites.yaml")).hasSameTextualContentAs(home.resolve("conf/sites.yaml"));
        assertThat(root.resolve("etc/default/siteflow-processor")).hasSameTextualContentAs(home.resolve("conf/processor.env"));
        assertThat(root.resolve("etc/systemd/system/siteflow-agent.service"))
                .hasSameTextualContentAs(home.resolve("systemd/siteflow-agent.service"));
        // the upgrade keeps the operator's settings
        assertThat(second.output()).contains("install.sh: keeping " + root + "/etc/default/siteflow-agent");
        assertThat(root.resolve("etc/default/siteflow-agent")).hasContent("IFACE=bond0");
    }

    @Test
    void saysWhatToInstallWhenNoJavaIsFound(@TempDir Path tools) throws Exception {
        // PATH with the two tools the script needs and no java
        Path bin = Files.createDirectories(tools.resolve("bin"));
        for (String tool : List.of("readlink", "dirname")) {
            Files.copy(Path.of("/usr/bin", tool), bin.resolve(tool), java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
        }

        Processes.Result r = siteflow(Map.of("PATH", bin.toString()), "--help");

        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.output()).isEqualTo("siteflow: java not found: install a Java 17 runtime"
                + " (Debian: apt-get install openjdk-17-jre-headless) or set JAVA_HOME\n");
    }
}
