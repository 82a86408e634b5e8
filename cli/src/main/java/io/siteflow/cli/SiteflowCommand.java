package io.siteflow.cli;

import io.siteflow.agent.app.AgentMain;
import io.siteflow.agent.app.CaptureCommand;
import io.siteflow.agent.app.CollectCommand;
import io.siteflow.processor.app.ProcessCommand;
import io.siteflow.broker.BrokerCommand;
import io.siteflow.broker.TopicsCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code siteflow}: one entry point over all modules. */
@Command(name = "siteflow", separator = " ", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"Where does the bandwidth between two sites go?",
            "siteflow captures traffic, classifies it by site model and rules, and says",
            "whether a server's cross-site bytes go to the database (DB share >= 90%%).", ""},
        subcommands = {DemoCommand.class, CaptureCommand.class, CollectCommand.class, AuditCommand.class,
            RulesCommand.class, SitesCommand.class, ProcessCommand.class, BrokerCommand.class, TopicsCommand.class,
            WhatIfCommand.class, IsolationCommand.class},
        footer = {"", "Run 'siteflow COMMAND --help' for a command's options.",
            "Exit codes: 0 done, 1 failure, 2 input not read whole, 3 isolation",
            "violations found (isolation check), 64 wrong usage."})
public final class SiteflowCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required");
    }

    public static void main(String[] args) {
        System.exit(AgentMain.commandLine(new SiteflowCommand()).execute(args));
    }
}
