package io.siteflow.deploy;

import io.siteflow.cli.SiteflowCommand;
import java.util.List;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/** The real {@code siteflow} command line, parsed without running anything: deploy files must match it. */
final class SiteflowCli {
    private SiteflowCli() {
    }

    /**
     * Parses {@code args} (starting with the subcommand) as {@code siteflow} would.
     *
     * @throws CommandLine.ParameterException when an option is unknown, misses its value or has a bad one
     */
    static ParseResult parse(List<String> args) {
        return new CommandLine(new SiteflowCommand()).parseArgs(args.toArray(String[]::new));
    }

    /** The subcommands this build of {@code siteflow} has. */
    static Set<String> commands() {
        return new CommandLine(new SiteflowCommand()).getSubcommands().keySet();
    }

    /** Parses and returns the subcommand's own parse result. */
    static ParseResult parseSubcommand(List<String> args) {
        ParseResult r = parse(args);
        if (!r.hasSubcommand()) {
            throw new AssertionError("no subcommand in " + args);
        }
        return r.subcommand();
    }
}
