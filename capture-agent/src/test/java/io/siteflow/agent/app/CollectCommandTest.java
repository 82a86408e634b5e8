package io.siteflow.agent.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.agent.config.CaptureOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/** {@code siteflow collect}'s options as a user gives them: what is validated, the messages, the help. */
class CollectCommandTest {

    private record Run(int code, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = AgentMain.commandLine(new CollectCommand());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    private static CaptureOptions options(String... args) {
        CollectCommand c = new CollectCommand();
        AgentMain.commandLine(c).parseArgs(args);
        return c.options();
    }

    @Test
    void takesTheListenAddressExportersAndSamplingIntoTheOptions() throws Exception {
        CaptureOptions o = options("--listen", "[::1]:4739", "--json=f.jsonl", "--agent", "edge-a", "--exporter",
                "192.0.2.1", "--exporter", "2001:db8::2", "--sampling", "100", "--template-lifetime", "60");

        assertThat(o.collecting()).isTrue();
        assertThat(o.timely()).isTrue();
        assertThat(o.collect().listen().getAddress()).isEqualTo(InetAddress.getByName("::1"));
        assertThat(o.collect().listen().getPort()).isEqualTo(4739);
        assertThat(o.collect().exporters()).containsExactly(InetAddress.getByName("192.0.2.1"),
                InetAddress.getByName("2001:db8::2"));
        assertThat(o.describe()).startsWith("listen=0:0:0:0:0:0:0:1:4739 exporters=[192.0.2.1,2001:db8:0:0:0:0:0:2] "
                + "sampling=100 templateLifetime=60s remote=[] agent=edge-a");
        assertThat(o.sourceName()).isEqualTo("0:0:0:0:0:0:0:1:4739");
        assertThat(o.collect().receivePoolBytes()).isEqualTo(128 << 20);
    }

    @Test
    void takesTheReceivePoolSizeInMebibytes() throws Exception {
        CaptureOptions o = options("--listen", "0.0.0.0:2055", "--json", "--agent", "a", "--receive-buffer-mb", "16");

        assertThat(o.collect().receivePoolBytes()).isEqualTo(16 << 20);
    }

    @Test
    void takesTheSflowAddressAloneOrBesideTheListenAddress() throws Exception {
        CaptureOptions alone = options("--sflow", "0.0.0.0:6343", "--json", "--agent", "edge-a");
        CaptureOptions both = options("--listen", "0.0.0.0:2055", "--sflow", "[::]:6343", "--json", "--agent", "a");

        assertThat(alone.collecting()).isTrue();
        assertThat(alone.collect().listen()).isNull();
        assertThat(alone.collect().sflow()).isEqualTo(new InetSocketAddress(InetAddress.getByName("0.0.0.0"), 6343));
        assertThat(alone.sourceName()).isEqualTo("0.0.0.0:6343");
        assertThat(alone.describe()).startsWith("listen=none sflow=0.0.0.0:6343 exporters=any sampling=1 ");
        assertThat(both.collect().listen().getPort()).isEqualTo(2055);
        assertThat(both.collect().sflow()).isEqualTo(new InetSocketAddress(InetAddress.getByName("::"), 6343));
        assertThat(both.sourceName()).isEqualTo("0.0.0.0:2055");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "--listen 127.0.0.1:2055 | collect writes records: --json[=FILE] or --bootstrap HOST:PORT is needed",
        "--listen 127.0.0.1 --json | --listen 127.0.0.1: expected ADDRESS:PORT (0.0.0.0:2055, [::]:4739)",
        "--listen 127.0.0.1:70000 --json | --listen 127.0.0.1:70000: \"70000\" is not a port (0-65535)",
        "--listen router1:2055 --json | --listen router1:2055: not an IP address",
        "--listen 0.0.0.0:2055 --json --exporter 192.0.2.300 | --exporter 192.0.2.300: not an IP address",
        "--listen 0.0.0.0:2055 --json --sampling 0 | --sampling 0: must be 1 (not sampled) or more",
        "--listen 0.0.0.0:2055 --json --template-lifetime 0 | --template-lifetime 0: must be a positive number of "
            + "seconds",
        "--listen 0.0.0.0:2055 --json --receive-buffer-mb 0 | --receive-buffer-mb 0: must be 1 to 2047 (MiB)",
        "--listen 0.0.0.0:2055 --json --receive-buffer-mb 2048 | --receive-buffer-mb 2048: must be 1 to 2047 (MiB)",
        "--sflow 127.0.0.1 --json | --sflow 127.0.0.1: expected ADDRESS:PORT (0.0.0.0:2055, [::]:4739)",
        "--json | one of --listen ADDRESS:PORT (NetFlow v5/v9, IPFIX) and --sflow ADDRESS:PORT (sFlow v5) is "
            + "needed, or both"})
    void rejectsWrongUsageNamingTheOption(String args, String message) {
        Run r = run(args.split(" "));

        assertThat(r.code()).isEqualTo(64);
        assertThat(r.err()).startsWith("siteflow collect: " + message + "\n");
    }

    @Test
    void helpExplainsWhatItReadsAndWhereRecordsGo() {
        Run r = run("--help");

        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("Listen on a UDP port for the flow exports of routers, firewalls and probes\n"
                        + "(NetFlow v5, NetFlow v9, IPFIX), join the two directions of each conversation\n")
                .contains("--listen ADDRESS:PORT").contains("--exporter ADDRESS").contains("--sampling N")
                .contains("siteflow collect --listen 0.0.0.0:2055 --json=flows.jsonl --agent edge-a")
                .contains("--sflow ADDRESS:PORT").contains("sFlow v5 comes on a second port (--sflow; or alone)");
    }
}
