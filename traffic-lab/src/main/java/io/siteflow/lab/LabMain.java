package io.siteflow.lab;

import io.siteflow.agent.app.AgentMain;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The traffic lab's command line ({@code deploy/lab/lab.sh} wraps it):
 * {@code up}, {@code run}, {@code record}, {@code down}, {@code nudge}, and {@code bridge} (the router process {@code up}
 * starts). Exit codes: 0 done, 1 failure, 64 wrong usage.
 */
@Command(name = "lab", mixinStandardHelpOptions = true,
        description = "Two sites in network namespaces, a delaying router, real FMW-like traffic and its truth.",
        subcommands = {LabUpCommand.class, LabRunCommand.class, LabRecordCommand.class, LabDownCommand.class,
            LabNudgeCommand.class, LabBridgeCommand.class})
public final class LabMain implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(AgentMain.commandLine(new LabMain()).execute(args));
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return 64;
    }
}
