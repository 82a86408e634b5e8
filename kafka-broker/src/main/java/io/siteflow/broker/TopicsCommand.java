package io.siteflow.broker;

import io.siteflow.kafka.KafkaOptions;
import io.siteflow.kafka.topics.SiteflowTopics;
import io.siteflow.kafka.topics.TopicAdmin;
import io.siteflow.kafka.topics.TopicCheck;
import io.siteflow.model.cli.ExitCodes;
import java.io.PrintWriter;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code siteflow topics}: the siteflow topics of a cluster. */
@Command(name = "topics", mixinStandardHelpOptions = true, subcommands = TopicsCommand.Check.class,
        description = "Inspect the siteflow topics of a Kafka cluster.")
public final class TopicsCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "a subcommand is required (check)");
    }

    /**
     * {@code siteflow topics check}: a table of what exists, what is missing and what is unsafe for its job
     * ({@link TopicCheck}). Exit 0 when nothing is unsafe, 1 when a topic is unsafe or the cluster cannot be asked.
     */
    @Command(name = "check", mixinStandardHelpOptions = true,
            description = {"Print each siteflow topic's partitions, replication and min.insync.replicas with what is "
                    + "unsafe for its job (the checks siteflow process runs before it starts).", "",
                "Exit codes: 0 nothing unsafe (warnings and missing topics allowed), 1 a topic is unsafe or the "
                    + "cluster did not answer, 64 wrong usage."})
    public static final class Check implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        KafkaOptions kafkaOptions;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            String bootstrap = kafkaOptions.requireBootstrap();
            Map<String, Object> conf = new HashMap<>();
            try {
                conf.putAll(kafkaOptions.clientProperties());
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
            conf.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            conf.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 15_000);
            conf.putIfAbsent(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
            TopicCheck check;
            try (Admin admin = Admin.create(conf)) {
                check = TopicCheck.run(admin, SiteflowTopics.SINGLE_NODE.names());
            } catch (TopicAdmin.TopicAdminException | org.apache.kafka.common.KafkaException e) {
                err.println("siteflow topics check: " + bootstrap + ": " + e.getMessage());
                err.flush();
                return ExitCodes.FAILURE;
            }
            out.print(check.table(bootstrap));
            out.flush();
            return check.safe() ? ExitCodes.OK : ExitCodes.FAILURE;
        }
    }
}
