package io.siteflow.processor.broker;

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
}
