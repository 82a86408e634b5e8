package io.siteflow.cli.isolation;

import io.siteflow.cli.input.CaptureInput;
import io.siteflow.cli.input.CaptureRecords;
import io.siteflow.cli.input.FlowInput;
import io.siteflow.model.cli.ExitCodes;
import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.isolation.IsolationEvaluator;
import io.siteflow.rules.isolation.IsolationInputsBuilder;
import io.siteflow.rules.isolation.IsolationProposal;
import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.rules.model.SiteModel;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code siteflow isolation propose}: captures → flows → classify → edges → the {@code isolation:} block that allows
 * exactly what was seen ({@link IsolationProposal}; docs/RULES.md, "Proposing a policy"), offline, without Kafka.
 */
@Command(name = "propose", separator = " ", mixinStandardHelpOptions = true, sortOptions = false,
        header = "Propose the isolation: block that allows exactly the traffic of captures.",
        description = {"Read capture files the way 'siteflow audit' does and print an isolation:",
            "block for the site model that allows every edge seen (client, server, server",
            "port, protocol), whatever the model's own policy says of it. Groups come from",
            "the model's clusters and roles: a host is in its cluster's group, else in its",
            "role's; an address in no hosts entry is 'unlisted'. One allow rule per group",
            "pair, category, server port and protocol, with the L7 protocol where all its",
            "edges had the same, each after a comment with its evidence (bytes, flows,",
            "first and last seen). Review it, then paste it into sites.yaml (or use",
            "--in-model): from then on 'siteflow isolation check' reports what the",
            "captures did not show. Reference: docs/RULES.md, \"Proposing a policy\".", "",
            "Example:", "  siteflow isolation propose w1.pcap w2.pcap --sites sites.yaml --min-flows 3", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done",
            "1:failure, with its cause (e.g. --out cannot be written)",
            "2:a capture or the site model not read whole (the proposal covers what was read)",
            "64:wrong usage"})
public final class IsolationProposeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "CAPTURE",
            description = "Capture or flow files, read in the order given, each recognised by its content: pcap, "
                    + "pcapng (gzip-compressed or not), flow-record JSON lines (capture --json, collect --json), "
                    + "IPFIX files (RFC 5655), AWS VPC Flow Logs or OCI VCN flow logs (docs/OPERATIONS.md, Offline "
                    + "inputs).")
    List<Path> captures;

    @Option(names = "--sites", required = true, paramLabel = "FILE", description = "The site model (sites.yaml).")
    Path sites;

    @Option(names = "--min-flows", paramLabel = "N",
            description = "Leave out edges with fewer than N flows (counted in a closing comment). Default: ${DEFAULT-VALUE}.")
    int minFlows = 1;

    @Option(names = "--in-model",
            description = "Print the whole site model with the proposal in place of its isolation: block.")
    boolean inModel;

    @Option(names = "--out", paramLabel = "FILE", description = "Write to FILE instead of standard output.")
    Path out;

    @Option(names = "--agent", defaultValue = "propose", paramLabel = "ID",
            description = "The observer's agent id in the records. Default: ${DEFAULT-VALUE}.")
    String agent;

    @Override
    public Integer call() throws IOException {
        if (minFlows < 1) {
            throw new ParameterException(spec.commandLine(), "--min-flows " + minFlows + ": must be 1 or more");
        }
        PrintWriter err = spec.commandLine().getErr();
        Optional<SiteModel> model = CaptureInput.check(captures, sites, err);
        if (model.isEmpty()) {
            return ExitCodes.INPUT;
        }
        IsolationInputsBuilder builder = IsolationInputsBuilder.forProposal(
                IsolationEvaluator.orEmpty(new Classifier(model.get())));
        FlowInput.Result replay = CaptureRecords.replay(captures, agent, builder::add);
        List<String> problems = replay.problems();
        String block = IsolationProposal.propose(builder.build(0, Long.MAX_VALUE, List.of()), minFlows);
        String text = inModel ? IsolationProposal.withBlock(SiteModelLoader.read(sites), block) : block;
        if (!CaptureRecords.write(out, text, spec.commandLine().getOut(), err, "siteflow isolation propose")) {
            return ExitCodes.FAILURE;
        }
        replay.notes().forEach(err::println);
        problems.forEach(err::println);
        err.flush();
        return problems.isEmpty() ? ExitCodes.OK : ExitCodes.INPUT;
    }
}
