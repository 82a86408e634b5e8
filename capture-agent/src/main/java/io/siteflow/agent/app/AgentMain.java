package io.siteflow.agent.app;

import io.siteflow.agent.publish.json.StandardOutput;
import io.siteflow.model.cli.ExitCodes;
import picocli.CommandLine;

/** Entry point of the agent on its own: {@code java -cp ... io.siteflow.agent.app.AgentMain -r file.pcap --json}. */
public final class AgentMain {
    private AgentMain() {
    }

    public static void main(String[] args) {
        System.exit(commandLine(new CaptureCommand()).execute(args));
    }

    /**
     * A picocli command line with siteflow's exit codes (64 for usage errors) and options that take their value
     * after a space or an {@code =} ({@code -F CIDR}, {@code -F=CIDR}), shown with a space in the help; an optional
     * value only after {@code =} ({@code --json[=FILE]}, {@link AttachedValueOnly}). Its standard output is a
     * {@link StandardOutput}, so that a closed pipe or a full disk behind it is reported with its cause.
     */
    public static CommandLine commandLine(Object command) {
        CommandLine cl = new CommandLine(command);
        cl.setOut(StandardOutput.open()); // a failed write to it is an error with its cause, never swallowed
        cl.setSeparator("=");
        cl.setHelpFactory(SpacedHelp::new);
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine c = ex.getCommandLine();
            c.getErr().println(prefix(c) + ex.getMessage());
            if (!CommandLine.UnmatchedArgumentException.printSuggestions(ex, c.getErr())) {
                c.getErr().println("Try '" + c.getCommandSpec().qualifiedName() + " --help' for more information.");
            }
            return ExitCodes.USAGE;
        });
        cl.setExecutionExceptionHandler((ex, c, parseResult) -> {
            c.getErr().println(prefix(c) + ex.getMessage());
            return ExitCodes.FAILURE;
        });
        return cl;
    }

    /** {@code "siteflow audit: "}, {@code "siteflow rules check: "}, {@code "siteflow: "}: the program's name once. */
    static String prefix(CommandLine c) {
        String name = c.getCommandSpec().qualifiedName();
        return (name.equals("siteflow") || name.startsWith("siteflow ") ? name : "siteflow " + name) + ": ";
    }
}
