package io.siteflow.cli;

import io.siteflow.cli.input.CaptureInput;
import io.siteflow.cli.input.FlowInput;
import io.siteflow.model.IpAddresses;
import io.siteflow.model.cli.ExitCodes;
import io.siteflow.rules.audit.AuditCsv;
import io.siteflow.rules.audit.AuditReport;
import io.siteflow.rules.audit.AuditReportJson;
import io.siteflow.rules.audit.AuditText;
import io.siteflow.rules.audit.OfflineAudit;
import io.siteflow.rules.model.Host;
import io.siteflow.rules.model.SiteModel;
import io.siteflow.rules.verdict.Verdict;
import io.siteflow.rules.verdict.Window;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code siteflow audit}: capture → flows → classify → verdict, offline, without Kafka. */
@Command(name = "audit", separator = " ", mixinStandardHelpOptions = true, sortOptions = false,
        header = "Offline verdict for a capture or flow file: DB share of each server's cross-site bytes.",
        description = {"Classify the traffic of a capture file with a site model and give the verdict",
            "per audited server and remote site (DB share of the cross-site bytes against the",
            "threshold), per window and for the whole capture: the report a network team",
            "pastes into an audit. The input may be a capture (pcap, pcapng), flow-record",
            "JSON lines (capture --json, collect --json), an IPFIX file (RFC 5655), an AWS",
            "VPC flow log or an OCI VCN flow log, recognised by content; flow logs give no",
            "L7 and no RTT, and a malformed row is named (file:line: field: message), the",
            "rest read.", "",
            "Example:", "  siteflow audit stress.pcap --sites sites.yaml --server wls3 --format json",
            "  siteflow audit vpc-flow.log.gz --sites sites.yaml", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done", "2:capture, flow file or site model not read whole (the report covers what was read)",
            "64:wrong usage"})
public final class AuditCommand implements Callable<Integer> {

    /** Output formats. */
    enum Format { text, json, csv }

    @Spec
    CommandSpec spec;

    @Mixin
    CaptureInput input;

    @Option(names = "--format", defaultValue = "text", paramLabel = "FORMAT",
            description = "text (default), json (the verdict JSON of DESIGN.md) or csv.")
    Format format;

    @Option(names = "--server", paramLabel = "HOST",
            description = "Only this audited server: its address or its name in the site model.")
    String server;

    @Option(names = "--window", paramLabel = "SECONDS",
            description = "Tumbling window length. Default: ${DEFAULT-VALUE}.")
    int windowSeconds = (int) (Window.DEFAULT_SIZE_MS / 1000);

    @Option(names = "--agent", defaultValue = "audit", paramLabel = "ID",
            description = "Agent id in the records of a capture or flow log (JSON lines keep theirs).")
    String agent;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        if (windowSeconds <= 0) {
            throw new ParameterException(spec.commandLine(), "--window " + windowSeconds + ": must be positive");
        }
        Optional<SiteModel> model = input.check(err);
        if (model.isEmpty()) {
            return ExitCodes.INPUT;
        }
        String serverFilter = server == null ? null : serverAddress(model.get());
        OfflineAudit audit = new OfflineAudit(model.get(), windowSeconds * 1000L);
        FlowInput.Result replay = FlowInput.replay(input.capture(), agent, audit::accept);
        AuditReport report = filter(audit.report(input.capture().getFileName().toString(), replay.packets(), 0),
                serverFilter);
        PrintWriter out = spec.commandLine().getOut();
        out.print(switch (format) {
            case text -> AuditText.render(report);
            case json -> AuditReportJson.toJson(report) + "\n";
            case csv -> AuditCsv.render(report);
        });
        out.flush();
        replay.notes().forEach(err::println);
        replay.problems().forEach(err::println);
        err.flush();
        return replay.complete() ? ExitCodes.OK : ExitCodes.INPUT;
    }

    /** {@code --server} as an address, or the address of the site model's host of that name. */
    private String serverAddress(SiteModel model) {
        for (Host h : model.hosts()) {
            if (server.equals(h.name())) {
                return IpAddresses.format(h.hi(), h.lo());
            }
        }
        try {
            long[] a = IpAddresses.parse(server);
            return IpAddresses.format(a[0], a[1]);
        } catch (IllegalArgumentException e) {
            String names = model.hosts().stream().map(Host::name).filter(n -> n != null && !n.isEmpty())
                    .collect(Collectors.joining(", "));
            throw new ParameterException(spec.commandLine(), "--server " + server + ": neither an IP address nor a host of "
                    + input.sites() + (names.isEmpty() ? "" : " (hosts: " + names + ")"));
        }
    }

    private static AuditReport filter(AuditReport r, String server) {
        if (server == null) {
            return r;
        }
        return new AuditReport(r.capture(), r.rules(), keep(r.verdicts(), server), keep(r.windows(), server),
                r.sitePairs(), r.dbSites());
    }

    private static List<Verdict> keep(List<Verdict> verdicts, String server) {
        return verdicts.stream().filter(v -> v.server().equals(server)).toList();
    }
}
