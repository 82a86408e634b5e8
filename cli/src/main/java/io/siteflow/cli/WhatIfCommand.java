package io.siteflow.cli;

import io.siteflow.agent.app.FileReplay;
import io.siteflow.agent.flow.FlowSink;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.model.cli.ExitCodes;
import io.siteflow.rules.model.SiteModel;
import io.siteflow.rules.whatif.WhatIf;
import io.siteflow.rules.whatif.WhatIfText;
import java.io.PrintWriter;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code siteflow whatif}: what moving a server to another site would change, from a capture. */
@Command(name = "whatif", separator = " ", mixinStandardHelpOptions = true, sortOptions = false,
        header = "What moving a server to another site would change, from a capture.",
        description = {"Cross-site bytes before and after the move, the flows that would become",
            "local or cross-site, the DB calls that would stop or start paying the",
            "inter-site RTT and the time per second of work saved or added; every link's",
            "RTT median with the fibre distance it allows at most (100 km per ms of RTT)",
            "and a flag above Oracle's 10 ms limit.", "",
            "Example:", "  siteflow whatif --sites sites.yaml --move wls3=region1 capture.pcap", ""},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done", "2:capture or site model not read whole", "64:wrong usage"})
public final class WhatIfCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    CaptureInput input;

    @Option(names = "--move", required = true, paramLabel = "SERVER=SITE",
            description = "The server (name or address in the site model) and the site it would move to.")
    String move;

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
        FileReplay.Result replay = FileReplay.run(input.capture, "whatif", FlowTableConfig.DEFAULTS,
                FlowSink.to(whatIf::accept));
        PrintWriter out = spec.commandLine().getOut();
        out.print(WhatIfText.render(whatIf.report()));
        out.flush();
        replay.problems().forEach(err::println);
        err.flush();
        return replay.complete() ? ExitCodes.OK : ExitCodes.INPUT;
    }
}
