package io.siteflow.agent.export;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The kernel's view of a UDP socket on this host ({@code /proc/net/udp}, {@code /proc/net/udp6}: a Java
 * {@code DatagramSocket} is an IPv6 socket even when bound to 127.0.0.1): what waits in it, what it dropped.
 */
record UdpSockets(int port, long rxQueue, long drops) {

    /** The UDP socket bound to {@code port} (IPv4 or IPv6), or null when there is none. */
    static UdpSockets find(int port) {
        for (String table : List.of("/proc/net/udp", "/proc/net/udp6")) {
            List<String> lines;
            try {
                lines = Files.readAllLines(Path.of(table));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.trim().split("\\s+");
                int local = Integer.parseInt(f[1].substring(f[1].indexOf(':') + 1), 16);
                if (local == port) {
                    long rx = Long.parseLong(f[4].substring(f[4].indexOf(':') + 1), 16);
                    return new UdpSockets(port, rx, Long.parseLong(f[f.length - 1]));
                }
            }
        }
        return null;
    }
}
