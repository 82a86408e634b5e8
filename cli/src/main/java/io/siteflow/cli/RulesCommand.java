package io.siteflow.cli;

import io.siteflow.cli.input.SiteModels;
import io.siteflow.model.cli.ExitCodes;
import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.classify.FlowSyntax;
import io.siteflow.rules.model.Flow;
import io.siteflow.rules.model.SiteModel;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code siteflow rules check|explain}. */
@Command(name = "rules", separator = " ", mixinStandardHelpOptions = true, header = "Validate a site model, or say which rule matches a flow and why.",
        description = "Validate a site model, or say which rule matches a flow and why.",
        subcommands = {RulesCommand.Check.class, RulesCommand.Explain.class})
public final class RulesCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "a subcommand is required: check or explain");
    }

    /** {@code siteflow rules check FILE}. */
    @Command(name = "check", separator = " ", mixinStandardHelpOptions = true,
            header = "Validate a site model: every error and warning, with file, line and column.",
            description = {"Validate a site model (sites.yaml): every error and warning at once, each as",
                "file:line:column: key: message. Exit 0 when valid (warnings allowed), 2 when not."})
    static final class Check implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "FILE", description = "The site model, e.g. sites.yaml.")
        Path file;

        @Override
        public Integer call() {
            Optional<SiteModel> model = SiteModels.load(file, spec.commandLine().getErr(), true);
            if (model.isEmpty()) {
                return ExitCodes.INPUT;
            }
            SiteModel m = model.get();
            spec.commandLine().getOut().printf("%s: valid: %d sites, %d hosts, %d rules (defaults included), %s%n",
                    file, m.sites().size(), m.hosts().size(), m.rules().size(), m.version());
            spec.commandLine().getOut().flush();
            return ExitCodes.OK;
        }
    }

    /** {@code siteflow rules explain --sites FILE FLOW}. */
    @Command(name = "explain", separator = " ", mixinStandardHelpOptions = true,
            header = "Say which rule matches a flow and why, rule by rule.",
            description = {"Say which rule matches a flow and why, rule by rule.",
                "FLOW: " + FlowSyntax.FORM + ", in quotes (> redirects), e.g.",
                "  \"tcp 10.2.0.20:40112 -> 10.1.0.10:1521 l7=oracle-tns\"",
                "(IPv6 as [fd00::1]:1521)."})
    static final class Explain implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--sites", required = true, paramLabel = "FILE", description = "The site model.")
        Path sites;

        @Parameters(paramLabel = "FLOW", arity = "1..*", description = "The flow (quoted, or as separate words).")
        String[] flow;

        @Override
        public Integer call() {
            Flow f;
            try {
                f = FlowSyntax.parse(String.join(" ", flow));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "FLOW: " + e.getMessage());
            }
            Optional<SiteModel> model = SiteModels.load(sites, spec.commandLine().getErr(), false);
            if (model.isEmpty()) {
                return ExitCodes.INPUT;
            }
            spec.commandLine().getOut().print(new Classifier(model.get()).explain(f));
            spec.commandLine().getOut().flush();
            return ExitCodes.OK;
        }
    }
}
