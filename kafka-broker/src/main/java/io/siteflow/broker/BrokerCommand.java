package io.siteflow.broker;

import io.siteflow.kafka.StopSignals;
import io.siteflow.kafka.topics.SiteflowTopics;
import io.siteflow.kafka.topics.TopicAdmin;
import io.siteflow.model.cli.ExitCodes;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code siteflow broker}: runs an embedded Kafka node (KRaft, broker and controller in one process), creates the
 * siteflow topics, prints the bootstrap address on standard output and runs until SIGINT/SIGTERM, then shuts the
 * node down cleanly. With no cluster options it is a single-node broker on loopback; with {@code --cluster-id},
 * {@code --node-id} and {@code --voters} it is one node of a cluster (docs/OPERATIONS.md, "A Kafka cluster").
 *
 * <p>Exit codes ({@link ExitCodes}): 0 after a clean stop, 1 when the broker could not start (the message goes to
 * standard error), 64 for wrong usage.
 */
@Command(name = "broker", mixinStandardHelpOptions = true,
        description = {"Run a Kafka broker (KRaft) with the siteflow topics: a single node on loopback by default, "
                + "or one node of a cluster (--cluster-id, --node-id, --voters).", "",
            "On a cluster of three or more nodes the siteflow topics get replication factor 3 and "
                + "min.insync.replicas=2; they are created once every voter has joined."})
public final class BrokerCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--port", paramLabel = "P", description = "client port on 127.0.0.1 (default: a free one); "
            + "--listen sets address and port")
    int port;

    @Option(names = "--controller-port", paramLabel = "P",
            description = "KRaft controller port of a single node (default: a free one); a cluster node's "
                    + "controller listens on its own --voters entry")
    int controllerPort;

    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "data directory, kept across restarts (default: ${DEFAULT-VALUE})")
    Path dataDir = Path.of(".siteflow", "kafka");

    @Option(names = "--partitions", paramLabel = "N",
            description = "partitions of new siteflow topics (default: ${DEFAULT-VALUE})")
    int partitions = SiteflowTopics.SINGLE_NODE.partitions();

    @Option(names = "--cluster-id", paramLabel = "ID", description = "the cluster's id, the same on every node "
            + "(22 characters of base64url, e.g. MkU3OEVBNTcwNTJENDM2Qk); the storage is formatted with it on first "
            + "start and a directory of another cluster is refused")
    String clusterId;

    @Option(names = "--node-id", paramLabel = "N", description = "this node's id, one of the --voters ids")
    Integer nodeId;

    @Option(names = "--voters", paramLabel = "ID@HOST:PORT,...", description = "every node of the cluster with its "
            + "controller address, e.g. 1@kafka1:9093,2@kafka2:9093,3@kafka3:9093; this node's controller listens "
            + "on its own entry")
    String voters;

    @Option(names = "--listen", paramLabel = "HOST:PORT",
            description = "client listener address (default: 127.0.0.1 and --port)")
    String listen;

    @Option(names = "--advertised", paramLabel = "HOST:PORT",
            description = "address clients are told to use (default: the --listen address)")
    String advertised;

    @Option(names = "--broker-config", paramLabel = "FILE", description = "Kafka server properties applied last, "
            + "e.g. TLS and SASL listeners (docs/OPERATIONS.md, \"Security\")")
    Path brokerConfig;

    @Option(names = "--scram-credentials", paramLabel = "FILE", description = "SCRAM users created when the "
            + "storage is formatted (first start), one per line as kafka-storage format --add-scram takes them: "
            + "SCRAM-SHA-512=[name=admin,password=...]; keep the file readable by the broker's user only")
    Path scramCredentials;

    @Option(names = "--start-timeout", paramLabel = "SECONDS", description = "how long to wait for the node to "
            + "answer; a cluster node waits for a majority of the voters (default: ${DEFAULT-VALUE})")
    int startTimeoutSeconds = 120;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        EmbeddedKafkaBroker broker;
        KraftQuorum quorum;
        try {
            EmbeddedKafkaBroker.Builder b = builder();
            broker = b.build();
            quorum = broker.quorum();
            broker.start();
            if (quorum.size() == 1) {
                try (org.apache.kafka.clients.admin.Admin admin =
                        org.apache.kafka.clients.admin.Admin.create(broker.clientConfig())) {
                    TopicAdmin.ensureTopics(admin, SiteflowTopics.forBrokers(partitions, 1));
                }
            } else {
                ClusterTopics.createWhenAllJoin(broker, SiteflowTopics.forBrokers(partitions, quorum.size()),
                        err);
            }
        } catch (BrokerStartException | IllegalArgumentException | TopicAdmin.TopicAdminException e) {
            err.println("broker: " + e.getMessage());
            err.flush();
            return ExitCodes.FAILURE;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        StopSignals.onStop(stopped::countDown);
        out.println(broker.advertised());
        out.flush();
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        broker.close();
        return ExitCodes.OK;
    }

    private EmbeddedKafkaBroker.Builder builder() {
        if (voters == null && nodeId != null) {
            throw usage("--node-id needs --voters (every node of the cluster)");
        }
        if (voters != null && (nodeId == null || clusterId == null)) {
            throw usage("--voters needs --node-id and --cluster-id");
        }
        if (voters != null && controllerPort != 0) {
            throw usage("--controller-port does not apply to a cluster node: its controller listens on its "
                    + "--voters entry");
        }
        if (listen != null && port != 0) {
            throw usage("give --listen HOST:PORT or --port, not both");
        }
        if (startTimeoutSeconds < 1) {
            throw usage("--start-timeout must be at least 1 second, got " + startTimeoutSeconds);
        }
        EmbeddedKafkaBroker.Builder b = EmbeddedKafkaBroker.builder(dataDir)
                .startTimeout(Duration.ofSeconds(startTimeoutSeconds));
        try {
            if (listen != null) {
                KraftQuorum.HostPort l = KraftQuorum.HostPort.parse("--listen", listen);
                b.host(l.host()).port(l.port());
            } else {
                b.port(port);
            }
            b.controllerPort(controllerPort);
            if (advertised != null) {
                b.advertised(KraftQuorum.HostPort.parse("--advertised", advertised));
            }
            if (clusterId != null) {
                b.clusterId(clusterId);
            }
            if (voters != null) {
                b.quorum(KraftQuorum.parse(nodeId, voters));
            }
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        serverProperties().forEach((k, v) -> b.property((String) k, (String) v));
        if (scramCredentials != null) {
            try {
                Files.readAllLines(scramCredentials).stream().map(String::strip)
                        .filter(l -> !l.isEmpty() && !l.startsWith("#")).forEach(b::scram);
            } catch (IOException e) {
                throw new IllegalArgumentException("--scram-credentials " + scramCredentials + ": cannot read: "
                        + e.getMessage(), e);
            }
        }
        return b;
    }

    /** The {@code --broker-config} properties; empty without the option. */
    private Properties serverProperties() {
        Properties p = new Properties();
        if (brokerConfig == null) {
            return p;
        }
        try (Reader r = Files.newBufferedReader(brokerConfig)) {
            p.load(r);
        } catch (IOException e) {
            throw new IllegalArgumentException("--broker-config " + brokerConfig + ": cannot read: " + e.getMessage(),
                    e);
        }
        return p;
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    /** The command line of {@code broker} run on its own: a usage error prints one line and exits 64. */
    public static CommandLine commandLine(BrokerCommand command) {
        CommandLine cl = new CommandLine(command);
        cl.setParameterExceptionHandler((ex, args) -> {
            ex.getCommandLine().getErr().println("siteflow broker: " + ex.getMessage());
            return ExitCodes.USAGE;
        });
        return cl;
    }

    /** Runs the command on its own (without the {@code siteflow} launcher). */
    public static void main(String[] args) {
        System.exit(commandLine(new BrokerCommand()).execute(args));
    }
}
