package io.siteflow.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class BrokerCommandTest {

    @Test
    void aUsageErrorOfTheBrokerRunOnItsOwnPrintsOneLineAndExits64() {
        StringWriter err = new StringWriter();
        CommandLine cl = BrokerCommand.commandLine(new BrokerCommand()).setErr(new PrintWriter(err, true));

        int code = cl.execute("--port", "many");

        assertThat(code).isEqualTo(64);
        assertThat(err.toString()).isEqualTo("siteflow broker: Invalid value for option '--port': 'many' is not an int"
                + System.lineSeparator());
    }

    @Test
    void clusterOptionsThatDoNotFitTogetherAreUsageErrorsNamingTheOption() {
        String voters = "1@127.0.0.1:29093,2@127.0.0.1:29193,3@127.0.0.1:29293";
        assertThat(usage("--node-id", "2")).isEqualTo("siteflow broker: --node-id needs --voters (every node of "
                + "the cluster)");
        assertThat(usage("--voters", voters, "--node-id", "2")).isEqualTo("siteflow broker: --voters needs "
                + "--node-id and --cluster-id");
        assertThat(usage("--cluster-id", ID, "--node-id", "4", "--voters", voters)).isEqualTo("siteflow broker: "
                + "--node-id 4 is not among the voters " + voters + ": a node's controller listens on its own voter "
                + "address");
        assertThat(usage("--cluster-id", ID, "--node-id", "1", "--voters", "1@kafka1:9093,2@kafka2"))
                .isEqualTo("siteflow broker: --voters: '2@kafka2' is not id@host:port (port 1-65535)");
        assertThat(usage("--cluster-id", ID, "--node-id", "1", "--voters", "1@a:1,1@b:2"))
                .isEqualTo("siteflow broker: --voters: node ids repeat in 1@a:1,1@b:2");
        assertThat(usage("--cluster-id", ID, "--node-id", "1", "--voters", voters, "--controller-port", "9093"))
                .isEqualTo("siteflow broker: --controller-port does not apply to a cluster node: its controller "
                        + "listens on its --voters entry");
        assertThat(usage("--listen", "127.0.0.1:9092", "--port", "9092"))
                .isEqualTo("siteflow broker: give --listen HOST:PORT or --port, not both");
        assertThat(usage("--listen", "kafka1")).isEqualTo("siteflow broker: --listen: 'kafka1' is not host:port "
                + "(port 1-65535)");
        assertThat(usage("--cluster-id", "xyz")).startsWith("siteflow broker: --cluster-id: 'xyz' is not a Kafka "
                + "cluster id (22 characters of base64url, e.g. from 'kafka-storage random-uuid'): ");
    }

    private static final String ID = "MkU3OEVBNTcwNTJENDM2Qk";

    /** The one line a usage error prints, after checking that it exits 64. */
    private static String usage(String... args) {
        StringWriter err = new StringWriter();
        int code = BrokerCommand.commandLine(new BrokerCommand()).setErr(new PrintWriter(err, true)).execute(args);
        assertThat(code).as("exit code of %s", String.join(" ", args)).isEqualTo(64);
        return err.toString().stripTrailing();
    }
}
