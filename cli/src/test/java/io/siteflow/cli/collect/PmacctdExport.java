package io.siteflow.cli.collect;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * pmacctd's nfprobe plugin exporting a capture file as NetFlow or IPFIX to a loopback port: the real exporter of the
 * cli and system ITs.
 */
public final class PmacctdExport {
    private static final Duration GUARD = Duration.ofSeconds(120);

    private PmacctdExport() {
    }

    /**
     * Runs pmacctd over {@code capture} until it has read the file, sending NetFlow {@code version} (5, 9) or IPFIX
     * (10) to {@code 127.0.0.1:port}; its
     * configuration and log go to {@code dir}. At the end of the file pmacctd's core asks the plugin to stop; when the
     * plugin has gone before the core looks, the core logs "no more plugins active" and exits 1 with everything sent
     * (capture-agent's {@code ExportProcesses} says more): that exit is taken, any other failure fails with the log.
     */
    public static void export(Path dir, Path capture, int port, int version) throws Exception {
        Path conf = dir.resolve("pmacctd.conf");
        Files.writeString(conf, String.join("\n", "daemonize: false", "pcap_savefile: " + capture,
                "pcap_savefile_wait: false", "plugins: nfprobe", "nfprobe_receiver: 127.0.0.1:" + port,
                "nfprobe_version: " + version, "nfprobe_timeouts: maxlife=5:expint=1", "plugin_pipe_size: 10240000",
                "plugin_buffer_size: 10240", ""));
        Path log = dir.resolve("pmacctd.log");
        Process p = new ProcessBuilder("pmacctd", "-f", conf.toString()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        try {
            assertThat(p.waitFor(GUARD.toSeconds(), TimeUnit.SECONDS)).as("pmacctd ended at the end of the file")
                    .isTrue();
            String out = Files.readString(log);
            boolean pluginWentFirst = p.exitValue() == 1 && out.contains("no more plugins active. Shutting down.")
                    && !out.contains("ERROR");
            assertThat(p.exitValue() == 0 || pluginWentFirst).as(out).isTrue();
        } finally {
            p.destroyForcibly();
        }
    }
}
