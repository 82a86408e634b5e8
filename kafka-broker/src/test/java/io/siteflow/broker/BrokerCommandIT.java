package io.siteflow.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class BrokerCommandIT {
    @TempDir
    Path dir;

    @Test
    void exitsWithOneAndSaysWhichPortIsInUse() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int p = taken.getLocalPort();
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = new CommandLine(new BrokerCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
                    .execute("--port", Integer.toString(p), "--data-dir", dir.toString());

            assertThat(code).isEqualTo(1);
            assertThat(out.toString()).isEmpty();
            assertThat(err.toString()).isEqualTo("broker: broker port " + p + " on 127.0.0.1 is in use "
                    + "(Address already in use)" + System.lineSeparator());
        }
    }
}
