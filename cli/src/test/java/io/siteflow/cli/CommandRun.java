package io.siteflow.cli;

import io.siteflow.agent.app.AgentMain;
import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs {@code siteflow ARGS} in-process and keeps the exit code and both outputs. */
public record CommandRun(int exitCode, String out, String err) {

    public static CommandRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = AgentMain.commandLine(new SiteflowCommand());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new CommandRun(code, out.toString(), err.toString());
    }
}
