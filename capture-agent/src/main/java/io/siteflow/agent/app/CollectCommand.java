package io.siteflow.agent.app;

import io.siteflow.agent.config.CaptureOptions;
import io.siteflow.agent.config.CaptureOptionsBuilder;
import io.siteflow.agent.export.CollectSettings;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.kafka.KafkaOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code siteflow collect}: flow exports from routers (NetFlow v5/v9, IPFIX, sFlow v5) into the agent's flow records. */
@Command(name = "collect", separator = " ", mixinStandardHelpOptions = true, sortOptions = false,
        usageHelpAutoWidth = true,
        header = "Collect NetFlow v5/v9, IPFIX and sFlow v5 exports into flow records (JSON, Kafka), as capture "
                + "writes them.",
        description = {
            "Listen on a UDP port for the flow exports of routers, firewalls and probes",
            "(NetFlow v5, NetFlow v9, IPFIX), join the two directions of each conversation",
            "into one record (the initiator from TCP SYN flags, else the port rule capture",
            "uses), scale sampled counts by the exporter's sampling rate (options data or",
            "--sampling), and publish the records as capture does: JSON lines (--json)",
            "and/or Kafka (--bootstrap, with the disk spool). Records name the exporter and",
            "its observation domain. Export loss is counted from sequence numbers (records",
            "for v5 and IPFIX, export packets for v9, datagrams for sFlow) and sent in the",
            "heartbeat as drops.",
            "sFlow v5 comes on a second port (--sflow; or alone): the sampled packet",
            "headers of flow samples are decoded as capture decodes packets, their IP and",
            "frame bytes and packets multiplied by the sampling rate (records marked",
            "sampled); counter samples are counted, not turned into flows. One of --listen",
            "and --sflow is needed, or both.",
            "SIGINT/SIGTERM flush every held conversation and exit 0 (1 when datagrams or",
            "records were lost: named on standard error).",
            "See capture-agent/docs/collect.md.",
            "",
            "Examples:",
            "  siteflow collect --listen 0.0.0.0:2055 --json=flows.jsonl --agent edge-a",
            "  siteflow collect --listen 0.0.0.0:2055 --sflow 0.0.0.0:6343 \\",
            "      --json=flows.jsonl --agent edge-a",
            "  siteflow collect --listen 0.0.0.0:4739 --bootstrap kafka1:9092 \\",
            "      --agent edge-a --exporter 192.0.2.1 --exporter 192.0.2.2 --sampling 100",
            ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done (stopped by SIGINT/SIGTERM after flushing)",
            "1:the port cannot be listened on, a sink failed, records lost or left unsent in the spool, or "
                + "datagrams dropped by the receive pool (--receive-buffer-mb)",
            "64:wrong usage"})
public final class CollectCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--listen", paramLabel = "ADDRESS:PORT",
            description = "The UDP address and port exporters send NetFlow and IPFIX to: 0.0.0.0:2055 (NetFlow), "
                    + "0.0.0.0:4739 (IPFIX), [::]:2055 for IPv6. One port takes every version. This, --sflow or "
                    + "both is needed.")
    String listen;

    @Option(names = "--sflow", paramLabel = "ADDRESS:PORT",
            description = "The UDP address and port agents send sFlow v5 to: 0.0.0.0:6343. Flow samples' packet "
                    + "headers are decoded as capture decodes packets and scaled by their sampling rate (records "
                    + "marked sampled); counter samples are counted. This, --listen or both is needed.")
    String sflow;

    @Option(names = "--exporter", paramLabel = "ADDRESS",
            description = "Accept datagrams of this exporter only (an IP address; repeat for several). Datagrams of "
                    + "others are refused and counted. Default: every exporter.")
    List<String> exporters = new ArrayList<>();

    @Option(names = "--sampling", paramLabel = "N", defaultValue = "" + CollectSettings.DEFAULT_SAMPLING,
            description = "The exporters sample 1 in N packets: bytes and packets are multiplied by N and records "
                    + "marked sampled. A rate an exporter announces (options data, the v5 header) is used instead. "
                    + "Default: ${DEFAULT-VALUE} (not sampled).")
    int sampling;

    @Option(names = "--agent", paramLabel = "ID", description = "Agent id in every record (default: the host name).")
    String agent;

    /** --bootstrap (records to siteflow.flows, heartbeats to siteflow.agents), --kafka-config, --kafka. */
    @Mixin
    KafkaOptions kafkaOptions;

    /** --spool-dir, --spool-max-mb, --json. */
    @Mixin
    RecordOutputOptions output;

    @Option(names = "--active-timeout", paramLabel = "SECONDS",
            defaultValue = "" + FlowTableConfig.DEFAULT_ACTIVE_TIMEOUT_SECONDS,
            description = "The two directions of a conversation are joined this long from its first exported record, "
                    + "then a record goes out (capture's active timeout). Default: ${DEFAULT-VALUE}.")
    int activeTimeout;

    @Option(names = "--idle-timeout", paramLabel = "SECONDS",
            defaultValue = "" + FlowTableConfig.DEFAULT_IDLE_TIMEOUT_SECONDS,
            description = "A conversation without exported records this long goes out as ended. Default: "
                    + "${DEFAULT-VALUE}.")
    int idleTimeout;

    @Option(names = "--max-flows", paramLabel = "N", defaultValue = "" + FlowTableConfig.DEFAULT_MAX_FLOWS,
            description = "Conversations held at once; beyond that the oldest goes out early. Default: ${DEFAULT-VALUE}.")
    int maxFlows;

    @Option(names = "--template-lifetime", paramLabel = "SECONDS",
            defaultValue = "" + CollectSettings.DEFAULT_TEMPLATE_LIFETIME_SECONDS,
            description = "A NetFlow v9 or IPFIX template the exporter has not sent again for this long is dropped "
                    + "(UDP exporters resend them). Default: ${DEFAULT-VALUE}.")
    int templateLifetime;

    @Option(names = "--receive-buffer-mb", paramLabel = "MIB",
            defaultValue = "" + CollectSettings.DEFAULT_RECEIVE_POOL_MB,
            description = "The collector's own buffer between receiving and decoding, in MiB (1-2047): it takes bursts "
                    + "the decoder cannot keep up with; what it cannot take is dropped and counted. Default: "
                    + "${DEFAULT-VALUE}.")
    int receiveBufferMb;

    /** --metrics-port, --metrics-bind. */
    @Mixin
    MetricsOptions metrics;

    @Override
    public Integer call() {
        return new AgentRunner(options(), spec.commandLine().getOut(), spec.commandLine().getErr()).run();
    }

    /** Validates the options; a bad value is a usage error naming the option. */
    CaptureOptions options() {
        if (listen == null && sflow == null) {
            throw new ParameterException(spec.commandLine(), "one of --listen ADDRESS:PORT (NetFlow v5/v9, IPFIX) "
                    + "and --sflow ADDRESS:PORT (sFlow v5) is needed, or both");
        }
        CaptureOptionsBuilder b = CaptureOptions.builder().listen(listen).sflow(sflow).sampling(sampling).agent(agent)
                .bootstrap(kafkaOptions.bootstrap()).kafkaConfig(kafkaOptions.config()).kafka(kafkaOptions.properties())
                .activeTimeoutSeconds(activeTimeout).idleTimeoutSeconds(idleTimeout).maxFlows(maxFlows)
                .templateLifetimeSeconds(templateLifetime).receivePoolMb(receiveBufferMb);
        exporters.forEach(b::exporter);
        output.applyTo(b);
        metrics.applyTo(b);
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }
}
