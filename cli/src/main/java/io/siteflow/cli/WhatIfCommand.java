package io.siteflow.cli;

import io.siteflow.cli.input.CaptureInput;
import io.siteflow.cli.input.FlowInput;
import io.siteflow.model.cli.ExitCodes;
import io.siteflow.rules.model.SiteModel;
import io.siteflow.rules.whatif.WhatIf;
import io.siteflow.rules.whatif.WhatIfJson;
import io.siteflow.rules.whatif.WhatIfReport;
import io.siteflow.rules.whatif.WhatIfText;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Stack;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.IParameterPreprocessor;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code siteflow whatif}: what moving a server to another site would change, from a capture or flow file. */
@Command(name = "whatif", separator = " ", mixinStandardHelpOptions = true, sortOptions = false,
        header = "What moving a server to another site would change, from a capture or flow file.",
        description = {"Cross-site bytes before and after the move, the flows that would become",
            "local or cross-site, the DB calls that would stop or start paying the",
            "inter-site RTT and the time per second of work saved or added; every link's",
            "RTT median with the fibre distance it allows at most (100 km per ms of RTT)",
            "and a flag above Oracle's 10 ms limit (or the site model's rttLimitMs when",
            "that is stricter: \"ABOVE the site model's 5 ms limit\").", "",
            "The input may be a capture or a flow file (flow-record JSON lines, an IPFIX",
            "file, an AWS VPC or OCI VCN flow log), recognised by content; flow logs carry",
            "no RTT and no DB calls.", "",
            "--json prints the same as one JSON object (docs/RULES.md, \"What-if\"), the",
            "answer of /api/whatif; --json=FILE writes it to FILE.", "",
            "Example:", "  siteflow whatif --sites sites.yaml --move wls3=region1 capture.pcap",
            "  siteflow whatif --sites s.yaml --move wls3=region1 --json=out.json c.pcap", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done", "1:--json=FILE could not be written",
            "2:capture, flow file or site model not read whole",
            "64:wrong usage"})
public final class WhatIfCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    CaptureInput input;

    @Option(names = "--move", required = true, paramLabel = "SERVER=SITE",
            description = "The server (name or address in the site model) and the site it would move to.")
    String move;

    @Option(names = "--json", arity = "0..1", fallbackValue = "-", paramLabel = "FILE",
            preprocessor = AttachedValueOnly.class,
            description = "JSON instead of text, to standard output or (--json=FILE) to FILE.")
    String json;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        int eq = move.indexOf('=');
        if (eq <= 0 || eq == move.length() - 1) {
            throw new ParameterException(spec.commandLine(), "--move " + move + ": expected SERVER=SITE");
        }
        Optional<SiteModel> model = input.check(err);
        if (model.isEmpty()) {
            return ExitCodes.INPUT;
        }
        WhatIf whatIf;
        try {
            whatIf = new WhatIf(model.get(), move.substring(0, eq), move.substring(eq + 1));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        FlowInput.Result replay = FlowInput.replay(input.capture(), "whatif", whatIf::accept);
        replay.notes().forEach(err::println);
        replay.problems().forEach(err::println);
        err.flush();
        if (!print(whatIf.report(), err)) {
            return ExitCodes.FAILURE;
        }
        return replay.complete() ? ExitCodes.OK : ExitCodes.INPUT;
    }

    /** The report as text, or as JSON to standard output or {@code --json=FILE}; false when FILE failed. */
    private boolean print(WhatIfReport report, PrintWriter err) {
        String text = json == null ? WhatIfText.render(report) : WhatIfJson.toJson(report) + "\n";
        if (json == null || json.equals("-")) {
            PrintWriter out = spec.commandLine().getOut();
            out.print(text);
            out.flush();
            return true;
        }
        try {
            Files.writeString(Path.of(json), text);
            return true;
        } catch (IOException | InvalidPathException e) {
            err.println("--json=" + json + ": cannot write: " + e);
            err.flush();
            return false;
        }
    }

    /**
     * {@code --json} takes a FILE only attached ({@code --json=FILE}): {@code --json capture.pcap} leaves the
     * capture to the positional parameter.
     */
    static final class AttachedValueOnly implements IParameterPreprocessor {
        @Override
        public boolean preprocess(Stack<String> args, CommandSpec commandSpec, ArgSpec argSpec,
                                  Map<String, Object> info) {
            if ("=".equals(info.get("separator"))) {
                return false; // --json=FILE: picocli takes FILE
            }
            argSpec.setValue("-");
            return true;
        }
    }
}
