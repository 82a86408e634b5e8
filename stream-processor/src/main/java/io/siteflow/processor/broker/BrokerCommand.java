package io.siteflow.processor.broker;

import io.siteflow.model.cli.ExitCodes;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code siteflow broker [--port P] [--controller-port P] [--data-dir DIR]}: runs a single-node
 * embedded Kafka broker, creates the siteflow topics, prints the bootstrap address on standard
 * output and runs until SIGINT/SIGTERM, then shuts the broker down cleanly.
 *
 * <p>Exit codes ({@link ExitCodes}): 0 after a clean stop, 1 when the broker could not start (the message goes to
 * standard error), 64 for wrong usage (picocli).
 */
@Command(name = "broker", mixinStandardHelpOptions = true,
        description = "Run a single-node Kafka broker (KRaft) with the siteflow topics.")
public final class BrokerCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--port", description = "client port (default: a free one)")
    int port;

    @Option(names = "--controller-port", description = "KRaft controller port (default: a free one)")
    int controllerPort;

    @Option(names = "--data-dir", description = "data directory, kept across restarts (default: ${DEFAULT-VALUE})")
    Path dataDir = Path.of(".siteflow", "kafka");

    @Option(names = "--partitions", description = "partitions of new siteflow topics (default: ${DEFAULT-VALUE})")
    int partitions = SiteflowTopics.SINGLE_NODE.partitions();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        CountDownLatch stopped = new CountDownLatch(1);
        EmbeddedKafkaBroker broker;
        try {
            broker = EmbeddedKafkaBroker.builder(dataDir).port(port).controllerPort(controllerPort).build();
            broker.start();
            TopicAdmin.ensureTopics(broker.bootstrap(), new SiteflowTopics(partitions, (short) 1));
        } catch (BrokerStartException | IllegalArgumentException | TopicAdmin.TopicAdminException e) {
            err.println("broker: " + e.getMessage());
            err.flush();
            return ExitCodes.FAILURE;
        }
        StopSignals.onStop(stopped::countDown);
        out.println(broker.bootstrap());
        out.flush();
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        broker.close();
        return ExitCodes.OK;
    }

    /** Runs the command on its own (without the {@code siteflow} launcher). */
    /** The command line of {@code broker} run on its own: a usage error prints one line and exits 64. */
    public static CommandLine commandLine(BrokerCommand command) {
        CommandLine cl = new CommandLine(command);
        cl.setParameterExceptionHandler((ex, args) -> {
            ex.getCommandLine().getErr().println("siteflow broker: " + ex.getMessage());
            return ExitCodes.USAGE;
        });
        return cl;
    }

    public static void main(String[] args) {
        System.exit(commandLine(new BrokerCommand()).execute(args));
    }
}
