package io.siteflow.agent.app;

/**
 * Entry point of the flow-export collector on its own, as {@link AgentMain} is of the capture agent:
 * {@code java -cp ... io.siteflow.agent.app.CollectMain --listen 0.0.0.0:2055 --json}.
 */
public final class CollectMain {
    private CollectMain() {
    }

    public static void main(String[] args) {
        System.exit(AgentMain.commandLine(new CollectCommand()).execute(args));
    }
}
