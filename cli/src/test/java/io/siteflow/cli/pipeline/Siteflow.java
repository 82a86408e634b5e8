package io.siteflow.cli.pipeline;

import io.siteflow.agent.app.AgentMain;
import io.siteflow.cli.SiteflowCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs {@code siteflow ARGS} in this JVM and keeps the exit code and both outputs. */
record Siteflow(int exitCode, String out, String err) {

    static Siteflow run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = AgentMain.commandLine(new SiteflowCommand());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new Siteflow(code, out.toString(), err.toString());
    }
}
