package io.siteflow.cli;

import io.siteflow.cli.isolation.IsolationCheckCommand;
import io.siteflow.cli.isolation.IsolationProposeCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code siteflow isolation}: the isolation policy of a site model, checked against captures or proposed from them. */
@Command(name = "isolation", separator = " ", mixinStandardHelpOptions = true,
        header = "Check captures against the site model's isolation policy, or propose a policy from them.",
        description = "The isolation: block of sites.yaml says which application groups may talk to which "
                + "(docs/RULES.md, \"Isolation policy\").",
        subcommands = {IsolationCheckCommand.class, IsolationProposeCommand.class})
public final class IsolationCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required: check or propose");
    }
}
