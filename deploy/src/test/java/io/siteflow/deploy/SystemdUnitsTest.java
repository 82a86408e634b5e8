package io.siteflow.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine.ParseResult;

/** The systemd units: accepted by systemd itself, least privilege, and a command line siteflow accepts. */
class SystemdUnitsTest {

    static Stream<String> units() {
        return Stream.of("siteflow-agent.service", "siteflow-agent-ebpf.service", "siteflow-processor.service",
                "siteflow-broker.service");
    }

    static SystemdUnit unit(String name) {
        return SystemdUnit.parse(name, DeployFiles.read("systemd/" + name));
    }

    /** The unit's defaults overlaid with its sample settings file, as systemd combines them. */
    static Map<String, String> sampleEnvironment(SystemdUnit u) {
        Map<String, String> env = new HashMap<>(u.environment("wls3"));
        env.putAll(EnvFile.parse(DeployFiles.read(EnvFile.sampleFor(u.value("Service", "EnvironmentFile")))));
        return env;
    }

    @Test
    void theUnitsDirectoryHoldsExactlyTheFourServices() {
        assertThat(DeployFiles.list("systemd", "").stream().map(p -> p.getFileName().toString()))
                .containsExactlyInAnyOrderElementsOf(units().toList());
    }

    @ParameterizedTest
    @MethodSource("units")
    void systemdAnalyzeVerifyFindsNothingToSay(String name, @TempDir Path tmp) throws Exception {
        Assumptions.assumeTrue(Processes.onPath("systemd-analyze"),
                "systemd-analyze not on PATH (Debian package systemd)");
        // verify wants ExecStart's binary to exist: the unit is checked against a copy of it in tmp
        Path bin = Files.createDirectories(tmp.resolve("opt/siteflow/bin")).resolve("siteflow");
        Files.writeString(bin, "#!/bin/sh\n");
        Files.setPosixFilePermissions(bin, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path copy = tmp.resolve(name);
        Files.writeString(copy, DeployFiles.read("systemd/" + name).replace("/opt/siteflow/", tmp + "/opt/siteflow/"));

        Processes.Result r = Processes.run(tmp, Map.of("SYSTEMD_LOG_COLOR", "0"),
                List.of("systemd-analyze", "verify", copy.toString()), 60);

        assertThat(r.output()).isEmpty();
        assertThat(r.exitCode()).isZero();
    }

    @Test
    void agentCapturesAsSiteflowWithRawSocketCapabilitiesOnly() {
        SystemdUnit u = unit("siteflow-agent.service");
        assertThat(u.value("Service", "User")).isEqualTo("siteflow");
        assertThat(u.value("Service", "AmbientCapabilities")).isEqualTo("CAP_NET_RAW CAP_NET_ADMIN");
        assertThat(u.value("Service", "CapabilityBoundingSet")).isEqualTo("CAP_NET_RAW CAP_NET_ADMIN");
        assertThat(u.value("Service", "NoNewPrivileges")).isEqualTo("yes");
        assertThat(u.value("Service", "EnvironmentFile")).isEqualTo("/etc/default/siteflow-agent");
        assertThat(u.value("Service", "Restart")).isEqualTo("on-failure");
        assertThat(u.value("Service", "StateDirectory").split(" ")).contains("siteflow/spool");
    }

    @Test
    void ebpfAgentHoldsTheBpfCapabilitiesAndNoRawSocketOnesInsteadOfThePcapAgent() {
        SystemdUnit u = unit("siteflow-agent-ebpf.service");
        assertThat(u.value("Service", "User")).isEqualTo("siteflow");
        assertThat(u.value("Service", "AmbientCapabilities")).isEqualTo("CAP_BPF CAP_PERFMON CAP_NET_ADMIN");
        assertThat(u.value("Service", "CapabilityBoundingSet")).isEqualTo("CAP_BPF CAP_PERFMON CAP_NET_ADMIN");
        assertThat(u.value("Service", "RestrictAddressFamilies")).isEqualTo("AF_UNIX AF_INET AF_INET6 AF_NETLINK");
        assertThat(u.value("Unit", "Conflicts")).isEqualTo("siteflow-agent.service");
        // the same settings file and spool as the pcap agent: one or the other runs
        assertThat(u.value("Service", "EnvironmentFile"))
                .isEqualTo(unit("siteflow-agent.service").value("Service", "EnvironmentFile"));
        assertThat(u.value("Service", "StateDirectory"))
                .isEqualTo(unit("siteflow-agent.service").value("Service", "StateDirectory"));
    }

    @Test
    void ebpfAgentCommandLineWithTheSampleSettingsIsTheSameCaptureWithTheEbpfBackend() {
        SystemdUnit ebpf = unit("siteflow-agent-ebpf.service");
        SystemdUnit pcap = unit("siteflow-agent.service");
        List<String> words = ebpf.execStart(sampleEnvironment(ebpf));

        ParseResult capture = SiteflowCli.parseSubcommand(words.subList(1, words.size()));

        assertThat(capture.commandSpec().name()).isEqualTo("capture");
        assertThat((String) capture.matchedOptionValue("--backend", null)).isEqualTo("ebpf");
        List<String> pcapWords = pcap.execStart(sampleEnvironment(pcap));
        assertThat((String) SiteflowCli.parseSubcommand(pcapWords.subList(1, pcapWords.size()))
                .matchedOptionValue("--backend", null)).as("the libpcap unit names its backend").isEqualTo("pcap");
        List<String> asPcap = new java.util.ArrayList<>(words);
        asPcap.set(words.indexOf("--backend") + 1, "pcap");
        assertThat(asPcap).isEqualTo(pcapWords);
    }

    @ParameterizedTest
    @MethodSource("units")
    void everyUnitRunsAsSiteflowAndRestartsOnFailure(String name) {
        SystemdUnit u = unit(name);
        assertThat(u.value("Service", "User")).isEqualTo("siteflow");
        assertThat(u.value("Service", "Group")).isEqualTo("siteflow");
        assertThat(u.value("Service", "NoNewPrivileges")).isEqualTo("yes");
        assertThat(u.value("Service", "Restart")).isEqualTo("on-failure");
        assertThat(u.value("Install", "WantedBy")).isEqualTo("multi-user.target");
        assertThat(u.value("Service", "ExecStart")).startsWith("/opt/siteflow/bin/siteflow ");
    }

    @Test
    void processorAndBrokerHoldNoCapabilities() {
        assertThat(unit("siteflow-processor.service").value("Service", "CapabilityBoundingSet")).isEmpty();
        assertThat(unit("siteflow-broker.service").value("Service", "CapabilityBoundingSet")).isEmpty();
        assertThat(unit("siteflow-processor.service").values("Service", "AmbientCapabilities")).isEmpty();
    }

    @Test
    void agentCommandLineWithTheSampleSettingsIsACaptureSiteflowAccepts() {
        SystemdUnit u = unit("siteflow-agent.service");
        List<String> words = u.execStart(sampleEnvironment(u));

        ParseResult capture = SiteflowCli.parseSubcommand(words.subList(1, words.size()));

        assertThat(capture.commandSpec().name()).isEqualTo("capture");
        assertThat((String) capture.matchedOptionValue("-i", null)).isEqualTo("ens3");
        assertThat(capture.matchedOption("-F").<List<String>>getValue()).containsExactly("10.1.0.0/16");
        assertThat((String) capture.matchedOptionValue("--bootstrap", null)).isEqualTo("kafka1.example.net:9092");
        assertThat((String) capture.matchedOptionValue("--agent", null)).isEqualTo("wls3");
        assertThat(capture.matchedOptionValue("--spool-dir", Path.of(""))).isEqualTo(Path.of("/var/lib/siteflow/spool"));
        assertThat((Integer) capture.matchedOptionValue("--metrics-port", 0)).isEqualTo(9464);
    }

    @Test
    void brokerCommandLineWithTheSampleSettingsIsABrokerSiteflowAccepts() {
        SystemdUnit u = unit("siteflow-broker.service");
        List<String> words = u.execStart(sampleEnvironment(u));

        ParseResult broker = SiteflowCli.parseSubcommand(words.subList(1, words.size()));

        assertThat(broker.commandSpec().name()).isEqualTo("broker");
        assertThat((Integer) broker.matchedOptionValue("--port", 0)).isEqualTo(9092);
        assertThat((Integer) broker.matchedOptionValue("--controller-port", 0)).isEqualTo(9093);
        assertThat(broker.matchedOptionValue("--data-dir", Path.of(""))).isEqualTo(Path.of("/var/lib/siteflow/kafka"));
    }

    @Test
    void processorCommandLineWithTheSampleSettingsIsAProcessSiteflowAccepts() {
        Assumptions.assumeTrue(SiteflowCli.commands().contains("process"),
                "this build of siteflow has no process command yet: " + SiteflowCli.commands());
        SystemdUnit u = unit("siteflow-processor.service");
        List<String> words = u.execStart(sampleEnvironment(u));

        ParseResult process = SiteflowCli.parseSubcommand(words.subList(1, words.size()));

        assertThat(process.commandSpec().name()).isEqualTo("process");
        assertThat((String) process.matchedOptionValue("--advertised-host", null)).isEqualTo("wls3");
        assertThat(process.matchedOption("--sites").getValue().toString()).isEqualTo("/etc/siteflow/sites.yaml");
    }

    @ParameterizedTest
    @MethodSource("units")
    void theLaunchersClassDataArchiveGoesToACacheDirectorySystemdMakesWritable(String name) {
        SystemdUnit u = unit(name);

        assertThat(u.environment("wls3")).containsEntry("SITEFLOW_CDS_DIR", "/var/cache/siteflow/cds");
        assertThat(u.value("Service", "CacheDirectory")).isEqualTo("siteflow/cds");
        assertThat(u.value("Service", "ProtectSystem")).isEqualTo("strict"); // why /opt/siteflow/cds would not do
    }

    @ParameterizedTest
    @MethodSource("units")
    void everyDirectoryTheCommandWritesIsAStateDirectory(String name) {
        SystemdUnit u = unit(name);
        List<String> stateDirs = Stream.of(u.value("Service", "StateDirectory").split(" "))
                .map(d -> "/var/lib/" + d).toList();
        List<String> words = u.execStart(sampleEnvironment(u));
        List<String> varLib = words.stream().filter(w -> w.startsWith("/var/lib/")).toList();

        assertThat(varLib).isNotEmpty();
        assertThat(stateDirs).containsAll(varLib);
    }

    @Test
    void sampleSettingsFilesSetTheRequiredVariables() throws IOException {
        assertThat(EnvFile.parse(DeployFiles.read("conf/agent.env")))
                .containsKeys("IFACE", "FILTER", "BOOTSTRAP", "METRICS_PORT", "AGENT_OPTS", "SITEFLOW_HEAP");
        assertThat(EnvFile.parse(DeployFiles.read("conf/processor.env")))
                .containsKeys("BOOTSTRAP", "HTTP_PORT", "HTTP_BIND", "PROCESSOR_OPTS", "SITEFLOW_HEAP");
        // the processor refuses a non-loopback bind without --http-token unless --http-insecure says so
        assertThat(EnvFile.parse(DeployFiles.read("conf/processor.env"))).containsEntry("HTTP_BIND", "127.0.0.1")
                .containsEntry("PROCESSOR_OPTS", "");
        assertThat(unit("siteflow-processor.service").value("Service", "Environment")).contains("HTTP_BIND=127.0.0.1 ");
        assertThat(EnvFile.parse(DeployFiles.read("conf/broker.env")))
                .containsKeys("PORT", "CONTROLLER_PORT", "BROKER_OPTS", "SITEFLOW_HEAP");
    }
}
