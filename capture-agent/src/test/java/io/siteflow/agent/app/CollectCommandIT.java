package io.siteflow.agent.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.DatagramSocket;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code siteflow collect} on a loopback UDP port that another socket holds: exit 1, naming the address. */
class CollectCommandIT {

    @Test
    void aPortInUseFailsWithExitOneNamingIt() throws Exception {
        try (DatagramSocket taken = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            CommandLine cl = AgentMain.commandLine(new CollectCommand());
            cl.setOut(new PrintWriter(out, true));
            cl.setErr(new PrintWriter(err, true));

            int code = cl.execute("--listen", "127.0.0.1:" + taken.getLocalPort(), "--json", "--agent", "a");

            assertThat(code).isEqualTo(1);
            assertThat(err.toString()).isEqualTo("siteflow collect: collect: cannot listen on udp 127.0.0.1:"
                    + taken.getLocalPort() + ": Address already in use\n");
            assertThat(out.toString()).isEmpty();
        }
    }
}
