package io.siteflow.agent.app;

import io.siteflow.agent.config.CaptureOptions;
import io.siteflow.agent.config.CaptureOptionsBuilder;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.kafka.KafkaOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code siteflow capture}: the agent's command line. Options follow iftop where iftop has one. */
@Command(name = "capture", separator = " ", mixinStandardHelpOptions = true, header = "Capture live or read a capture file into flow records (JSON, iftop-style report, Kafka).", sortOptions = false, usageHelpAutoWidth = true,
        description = {
            "Capture packets from an interface (-i) or read a capture file (-r), keep those",
            "between the local site and the remote-site CIDRs (-F, like iftop -F), aggregate",
            "them into flow records and publish them: as JSON lines (--json), as an iftop -t",
            "style report (--text, the default when no other output is asked for) and/or to",
            "Kafka (--bootstrap).",
            "",
            "Examples:",
            "  siteflow capture -r capture.pcap --json > flows.jsonl",
            "  siteflow capture -i ens3 -F 10.1.0.0/16 --text -s 900",
            "  siteflow capture -i ens3 -F 10.1.0.0/16 -F fd00:1::/64 --json",
            ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done", "1:capture failed (interface, permission, Kafka), or records lost or left unsent "
            + "in the spool (the end of the run says how many, why and where)",
            "2:input not read whole (missing, unsupported, corrupt or cut-short file; unsupported link type; "
            + "packets dated more than 5 min ahead of this host's clock)",
            "64:wrong usage"})
public final class CaptureCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    static final class Source {
        @Option(names = "-i", paramLabel = "IFACE", description = "Capture live on this interface (needs CAP_NET_RAW).")
        String iface;

        @Option(names = "-r", paramLabel = "FILE",
                description = "Read this capture file: pcap (µs or ns, either byte order), pcapng, or gzip-compressed.")
        Path file;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    @Option(names = "--realtime",
            description = "With -r: replay the file at the pace it was captured, packet times moved to now "
                    + "(demos, pipeline tests).")
    boolean realtime;

    @Option(names = "--loop", description = "With --realtime: start over at the end of the file, until stopped.")
    boolean loop;

    @Option(names = "--passes", paramLabel = "N",
            description = "With --loop: end after N passes over the file, as a file read ends (default: until stopped).")
    Integer passes;

    @Option(names = "--no-sni", description = "Leave the TLS server name (sni) out of every record: the one record "
            + "field read from packet payload (a host name such as db.example.com).")
    boolean noSni;

    @Option(names = "-F", paramLabel = "CIDR",
            description = "A remote-site network (IPv4 or IPv6; repeat for several). Keeps packets with exactly one "
                    + "end inside, like iftop -F. Without -F every IP packet is kept.")
    List<String> cidrs = new ArrayList<>();

    @Option(names = "-G", paramLabel = "CIDR6",
            description = "An IPv6 remote-site network, as iftop -G (repeatable; -F takes IPv6 networks too).")
    List<String> cidrs6 = new ArrayList<>();

    @Option(names = "--agent", paramLabel = "ID", description = "Agent id in every record (default: the host name).")
    String agent;

    /** --bootstrap (publish records to siteflow.flows, heartbeats to siteflow.agents), --kafka-config, --kafka. */
    @Mixin
    KafkaOptions kafkaOptions;

    /** --spool-dir, --spool-max-mb, --json. */
    @Mixin
    RecordOutputOptions output;

    @Option(names = {"-t", "--text"}, description = "Print the iftop -t report at the end (and on Ctrl-C): the "
            + "default output when neither --json nor --bootstrap is given; with them, add --text to get it too. With "
            + "iftop 1.0pre4's numbers: rates over the last 2, 10 and 40 s from the 2-second slots that have ended "
            + "(the one still filling is left out), each divided by the time seen while less than its span; see "
            + "capture-agent/docs/report.md.")
    boolean text;

    @Option(names = "-s", paramLabel = "SECONDS",
            description = "Live: stop at the first 2-second slot end at least this many seconds after the start "
                    + "and print the report (iftop -s).")
    Integer seconds;

    @Option(names = "-L", paramLabel = "N", defaultValue = "" + CaptureOptionsBuilder.DEFAULT_LINES,
            description = "Report lines (host pairs) to print; 0 prints all. Default: ${DEFAULT-VALUE}.")
    int lines;

    @Option(names = "-P", description = "Report port pairs instead of host pairs (iftop -P).")
    boolean ports;

    @Option(names = "-o", paramLabel = "ORDER", defaultValue = "10s",
            description = "Sort the report by the 2s, 10s or 40s column (largest first), or by source or "
                    + "destination address, as iftop -o. Default: ${DEFAULT-VALUE}.")
    String order;

    @Option(names = "-B", description = "Report rates in bytes per second instead of bits (iftop -B).")
    boolean bytes;

    @Option(names = "-n", description = "No host name lookups (always the case; accepted for iftop compatibility).")
    boolean numeric;

    @Option(names = "-N", description = "No port-to-service names (always the case; accepted for iftop compatibility).")
    boolean numericPorts;

    @Option(names = "-b", description = "No bar graph (the text report has none; accepted for iftop compatibility).")
    boolean noBars;

    @Option(names = "--snaplen", paramLabel = "BYTES", defaultValue = "" + CaptureOptionsBuilder.DEFAULT_SNAPLEN,
            description = "Live: bytes captured per packet (headers plus the first payload bytes for protocol "
                    + "signatures), " + CaptureOptionsBuilder.SNAPLEN_RANGE + ". Default: ${DEFAULT-VALUE}.")
    int snaplen;

    @Option(names = "--buffer-mb", paramLabel = "MB", defaultValue = "" + CaptureOptionsBuilder.DEFAULT_BUFFER_MB,
            description = "Live: kernel capture buffer in MiB, " + CaptureOptionsBuilder.BUFFER_MB_RANGE
                    + ". Default: ${DEFAULT-VALUE}.")
    int bufferMb;

    @Option(names = "--workers", paramLabel = "N", defaultValue = "" + CaptureOptionsBuilder.DEFAULT_WORKERS,
            description = "Live: N capture sockets in one PACKET_FANOUT group (flow-hash mode: both directions of a "
                    + "connection reach the same worker), each with its own thread, decoder and flow table and its "
                    + "own --buffer-mb ring; one merged output. Size N to the cores free for capture. "
                    + "Default: ${DEFAULT-VALUE}.")
    int workers;

    @Option(names = "--backend", paramLabel = "pcap|ebpf|auto", defaultValue = "auto",
            description = "Live: pcap reads every packet from the kernel's ring and aggregates flows in the agent; "
                    + "ebpf attaches a TC program to IFACE (ingress and egress) that aggregates flows in the kernel, "
                    + "with the -F networks filtered there, and drains them every second (no work per packet in the "
                    + "agent; L7, SNI and DB calls from the first payload bytes and the changes of direction the "
                    + "kernel sends; needs root or CAP_BPF + CAP_PERFMON + CAP_NET_ADMIN, Linux 5.12, libbpf1, an "
                    + "Ethernet interface; --workers is ignored; no --text report; see capture-agent/docs/ebpf.md); "
                    + "auto takes ebpf where it can run, else pcap (also for --text and --workers above 1), and "
                    + "says which and why when it starts. Default: ${DEFAULT-VALUE}.")
    String backend;

    @Option(names = "--capture-api", paramLabel = "ring|libpcap", defaultValue = "ring",
            description = "Live, --backend pcap: ring reads the kernel's TPACKET_V3 ring from Java (no native call "
                    + "per packet; Ethernet interfaces); libpcap calls pcap_next_ex per packet (any link type, "
                    + "e.g. the any device or a tunnel). Default: ${DEFAULT-VALUE}.")
    String captureApi;

    /** --metrics-port, --metrics-bind. */
    @Mixin
    MetricsOptions metrics;

    @Option(names = "--active-timeout", paramLabel = "SECONDS",
            defaultValue = "" + FlowTableConfig.DEFAULT_ACTIVE_TIMEOUT_SECONDS,
            description = "A running flow exports an interim record this often. Default: ${DEFAULT-VALUE}.")
    int activeTimeout;

    @Option(names = "--idle-timeout", paramLabel = "SECONDS",
            defaultValue = "" + FlowTableConfig.DEFAULT_IDLE_TIMEOUT_SECONDS,
            description = "A flow silent this long ends. Default: ${DEFAULT-VALUE}.")
    int idleTimeout;

    @Option(names = "--max-flows", paramLabel = "N", defaultValue = "" + FlowTableConfig.DEFAULT_MAX_FLOWS,
            description = "Flows held at once; beyond that the least recently seen is exported early. "
                    + "Default: ${DEFAULT-VALUE}.")
    int maxFlows;

    @Override
    public Integer call() {
        CaptureOptions options = options();
        return new AgentRunner(options, spec.commandLine().getOut(), spec.commandLine().getErr()).run();
    }

    /** Validates the options; a bad value is a usage error naming the option. */
    CaptureOptions options() {
        CaptureOptionsBuilder b = CaptureOptions.builder().iface(source.iface).file(source.file).realtime(realtime)
                .loop(loop).passes(passes).agent(agent).bootstrap(kafkaOptions.bootstrap()).kafkaConfig(kafkaOptions.config())
                .kafka(kafkaOptions.properties())
                .text(text).seconds(seconds).lines(lines)
                .ports(ports).order(order).bytes(bytes).snaplen(snaplen).bufferMb(bufferMb).workers(workers)
                .backend(backend).captureApi(captureApi)
                .activeTimeoutSeconds(activeTimeout).idleTimeoutSeconds(idleTimeout).maxFlows(maxFlows).sni(!noSni);
        cidrs.forEach(b::remoteCidr);
        cidrs6.forEach(b::remoteCidr6);
        output.applyTo(b);
        metrics.applyTo(b);
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
