package io.siteflow.lab.live;

import static org.awaitility.Awaitility.await;

import io.siteflow.lab.LabRecorder;
import io.siteflow.lab.NetnsLab;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * tcpdump writing a pcap file inside a lab namespace, the reference a live capture is compared with:
 * snaplen 256, 64 MiB buffer, packet-buffered output in immediate mode (every packet reaches the file at
 * once), root kept (no {@code -Z} drop, so it can write into a test's temporary directory).
 */
final class Tcpdump {

    private final Process process;
    private final Path file;
    private final Path log;

    private Tcpdump(Process process, Path file, Path log) {
        this.process = process;
        this.file = file;
        this.log = log;
    }

    /** Starts tcpdump on {@code iface} in {@code ns} and waits until it listens. */
    static Tcpdump start(NetnsLab lab, String ns, String iface, Path dir, String filter) throws IOException {
        Path file = dir.resolve("tcpdump.pcap");
        Path log = dir.resolve("tcpdump.log");
        List<String> cmd = new ArrayList<>(List.of("tcpdump", "-i", iface, "-n", "-s", "256", "-B", "65536",
                "-U", "--immediate-mode", "-Z", "root", "-w", file.toString()));
        if (!filter.isEmpty()) {
            cmd.add(filter);
        }
        Tcpdump t = new Tcpdump(lab.start(ns, cmd, log), file, log);
        await("tcpdump listening").atMost(Duration.ofSeconds(20))
                .until(() -> !t.process.isAlive() || Files.readString(log).contains("listening on"));
        if (!t.process.isAlive()) {
            throw new IOException("tcpdump ended: " + Files.readString(log));
        }
        return t;
    }

    /** The packets in the file so far. */
    List<CapturedPacket> packets() throws IOException {
        return PcapRecords.read(file);
    }

    /** Stops tcpdump (SIGTERM) and returns the kernel drops it reported. */
    long stop() throws IOException, InterruptedException {
        return LabRecorder.stop(process, log);
    }
}
