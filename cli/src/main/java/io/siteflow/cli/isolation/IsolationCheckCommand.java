package io.siteflow.cli.isolation;

import io.siteflow.cli.input.CaptureInput;
import io.siteflow.cli.input.CaptureRecords;
import io.siteflow.cli.input.FlowInput;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.cli.ExitCodes;
import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.isolation.IsolationCsv;
import io.siteflow.rules.isolation.IsolationEvaluator;
import io.siteflow.rules.isolation.IsolationInputsBuilder;
import io.siteflow.rules.isolation.IsolationJson;
import io.siteflow.rules.isolation.IsolationReport;
import io.siteflow.rules.isolation.IsolationText;
import io.siteflow.rules.isolation.Unverified;
import io.siteflow.rules.model.SiteModel;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code siteflow isolation check}: captures → flows → classify → isolation decisions → the auditor's report
 * (docs/RULES.md, "Isolation policy", "The check"), offline, without Kafka.
 */
@Command(name = "check", separator = " ", mixinStandardHelpOptions = true, sortOptions = false,
        header = "Check captures against the site model's isolation policy: which group pairs stay isolated.",
        description = {"Read capture files the way 'siteflow audit' does, decide every flow",
            "against the isolation: block of the site model (deny rules first, then",
            "allow rules; under 'default: deny' a flow no rule allows violates) and",
            "report for the captures' period: the state of every group pair (ISOLATED,",
            "NOT_ISOLATED or UNVERIFIED); each violating edge (client, server, port,",
            "protocol) with its bytes, packets, flows, first and last seen, and the",
            "nearest allow rule's failed conditions; hosts whose handshake RTT",
            "contradicts their site (MODEL_SUSPECT). The captures are one observer's",
            "(rotated files of one capture point). Flow files (flow-record JSON lines,",
            "IPFIX files, AWS VPC or OCI VCN flow logs) are read too, recognised by",
            "content. A capture",
            "or flow file not read whole makes",
            "every pair without a violation UNVERIFIED, never ISOLATED.",
            "Reference: docs/RULES.md, \"Isolation policy\".", "",
            "Example:", "  siteflow isolation check edge.pcap --sites sites.yaml --format json", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:nothing violates the policy",
            "1:failure, with its cause (e.g. --out cannot be written)",
            "2:a capture or the site model not read whole, or the model has no isolation: block (the report "
                + "covers what was read; it wins over 3)",
            "3:something violates the policy (the report lists it)",
            "64:wrong usage"})
public final class IsolationCheckCommand implements Callable<Integer> {

    /** Output formats. */
    enum Format { text, json, csv }

    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "CAPTURE",
            description = "Capture or flow files, read in the order given, each recognised by its content: pcap, "
                    + "pcapng (gzip-compressed or not), flow-record JSON lines (capture --json, collect --json), "
                    + "IPFIX files (RFC 5655), AWS VPC Flow Logs or OCI VCN flow logs (docs/OPERATIONS.md, Offline "
                    + "inputs).")
    List<Path> captures;

    @Option(names = "--sites", required = true, paramLabel = "FILE",
            description = "The site model (sites.yaml) with its isolation: block.")
    Path sites;

    @Option(names = "--format", defaultValue = "text", paramLabel = "FORMAT",
            description = "text (default: pairs, then violations with evidence), json (the report of "
                    + "docs/RULES.md, as GET /api/isolation) or csv (one row per violating edge).")
    Format format;

    @Option(names = "--out", paramLabel = "FILE", description = "Write the report to FILE instead of standard output.")
    Path out;

    @Option(names = "--agent", defaultValue = "check", paramLabel = "ID",
            description = "The observer's agent id in the records (each edge's observer). Default: ${DEFAULT-VALUE}.")
    String agent;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        Optional<SiteModel> model = CaptureInput.check(captures, sites, err);
        if (model.isEmpty()) {
            return ExitCodes.INPUT;
        }
        Optional<IsolationEvaluator> evaluator = IsolationEvaluator.of(new Classifier(model.get()));
        if (evaluator.isEmpty()) {
            err.println(sites + ": no isolation: block: nothing to check the captures against (docs/RULES.md, "
                    + "\"Isolation policy\"; 'siteflow isolation propose' writes one from captures)");
            err.flush();
            return ExitCodes.INPUT;
        }
        IsolationInputsBuilder builder = new IsolationInputsBuilder(evaluator.get());
        Period period = new Period();
        FlowInput.Result replay = CaptureRecords.replay(captures, agent, r -> {
            builder.add(r);
            period.add(r);
        });
        List<String> problems = replay.problems();
        List<Unverified> unverified = problems.stream()
                .map(p -> new Unverified(agent, Optional.empty(), "input not read whole: " + p)).toList();
        IsolationReport report = IsolationReport.of(builder.build(period.fromMs(), period.toMs(), unverified));
        if (!CaptureRecords.write(out, render(report), spec.commandLine().getOut(), err, "siteflow isolation check")) {
            return ExitCodes.FAILURE;
        }
        replay.notes().forEach(err::println);
        problems.forEach(err::println);
        err.flush();
        return !problems.isEmpty() ? ExitCodes.INPUT : report.violated() ? ExitCodes.VIOLATIONS : ExitCodes.OK;
    }

    private String render(IsolationReport report) {
        return switch (format) {
            case text -> IsolationText.render(report);
            case json -> IsolationJson.write(report);
            case csv -> IsolationCsv.render(report);
        };
    }

    /** The capture's period: first packet to last packet + 1 ms (the report's end is exclusive); 0..0 when empty. */
    private static final class Period {
        private long from = Long.MAX_VALUE;
        private long to = Long.MIN_VALUE;

        void add(FlowRecord r) {
            from = Math.min(from, r.start());
            to = Math.max(to, r.end() + 1);
        }

        long fromMs() {
            return from == Long.MAX_VALUE ? 0 : from;
        }

        long toMs() {
            return to == Long.MIN_VALUE ? 0 : to;
        }
    }
}
