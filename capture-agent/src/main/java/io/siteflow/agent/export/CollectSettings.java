package io.siteflow.agent.export;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What {@code siteflow collect} is told: where to listen, which exporters to accept, the default sampling rate, and
 * the bounds of what one exporter may make the collector hold.
 *
 * @param listen           UDP address and port for NetFlow v5/v9 and IPFIX datagrams (port 0: any free one); null
 *                         when only sFlow is collected
 * @param exporters        the exporters whose datagrams are decoded; empty: every exporter
 * @param sampling         the sampling rate (1 in N) of exporters that announce none; 1: counts are not scaled
 * @param templateLifetime a template not refreshed for this long is dropped (UDP, RFC 7011 8.4)
 * @param maxTemplates     templates held per exporter over all its domains; more are refused and counted
 * @param maxDomains       observation domains held per exporter; more are refused and counted
 * @param maxExporters     exporters held at once when {@code exporters} is empty; datagrams of more are refused
 * @param receiveBufferBytes the socket's receive buffer asked of the kernel (SO_RCVBUF; capped by rmem_max)
 * @param sflow            UDP address and port for sFlow v5 datagrams ({@code --sflow}); null: no sFlow socket
 * @param receivePoolBytes the collector's own buffer between the receiving and the decoding thread
 *                         ({@code --receive-buffer-mb}), at least 65,552 bytes; datagrams it cannot take are dropped
 *                         and counted
 */
public record CollectSettings(InetSocketAddress listen, List<InetAddress> exporters, int sampling,
                              Duration templateLifetime, int maxTemplates, int maxDomains, int maxExporters,
                              int receiveBufferBytes, InetSocketAddress sflow, int receivePoolBytes) {
    public static final int DEFAULT_SAMPLING = 1;
    public static final int DEFAULT_TEMPLATE_LIFETIME_SECONDS = 1800;
    public static final int DEFAULT_MAX_TEMPLATES = 512;
    public static final int DEFAULT_MAX_DOMAINS = 64;
    public static final int DEFAULT_MAX_EXPORTERS = 4096;
    public static final int DEFAULT_RECEIVE_BUFFER = 32 << 20;
    /** 128 MiB: about 4.5 s of 1,450-byte datagrams at 20,000 a second. */
    public static final int DEFAULT_RECEIVE_POOL_MB = 128;
    public static final int MAX_RECEIVE_POOL_MB = 2047;

    public CollectSettings {
        exporters = List.copyOf(exporters);
        if (listen == null && sflow == null) {
            throw new IllegalArgumentException("collect needs --listen ADDRESS:PORT or --sflow ADDRESS:PORT (or both)");
        }
        if (sampling < 1) {
            throw new IllegalArgumentException("--sampling " + sampling + ": must be 1 or more");
        }
        if (templateLifetime.isNegative() || templateLifetime.isZero()) {
            throw new IllegalArgumentException("--template-lifetime must be positive, got " + templateLifetime);
        }
        if (maxTemplates < 1 || maxDomains < 1 || maxExporters < 1) {
            throw new IllegalArgumentException("template, domain and exporter bounds must be at least 1");
        }
        if (receivePoolBytes < DatagramPool.MIN_CAPACITY) {
            throw new IllegalArgumentException("receive pool of " + receivePoolBytes + " bytes: must be at least "
                    + DatagramPool.MIN_CAPACITY + " (one datagram of the largest size)");
        }
    }

    /** With the default receive pool. */
    public CollectSettings(InetSocketAddress listen, List<InetAddress> exporters, int sampling,
            Duration templateLifetime, int maxTemplates, int maxDomains, int maxExporters, int receiveBufferBytes,
            InetSocketAddress sflow) {
        this(listen, exporters, sampling, templateLifetime, maxTemplates, maxDomains, maxExporters,
                receiveBufferBytes, sflow, DEFAULT_RECEIVE_POOL_MB << 20);
    }

    /** Without an sFlow socket. */
    public CollectSettings(InetSocketAddress listen, List<InetAddress> exporters, int sampling,
            Duration templateLifetime, int maxTemplates, int maxDomains, int maxExporters, int receiveBufferBytes) {
        this(listen, exporters, sampling, templateLifetime, maxTemplates, maxDomains, maxExporters,
                receiveBufferBytes, null);
    }

    /** Listening on {@code listen} with every default. */
    public static CollectSettings defaults(InetSocketAddress listen, List<InetAddress> exporters, int sampling) {
        return new CollectSettings(listen, exporters, sampling, Duration.ofSeconds(DEFAULT_TEMPLATE_LIFETIME_SECONDS),
                DEFAULT_MAX_TEMPLATES, DEFAULT_MAX_DOMAINS, DEFAULT_MAX_EXPORTERS, DEFAULT_RECEIVE_BUFFER);
    }

    /** For the start-up log line. */
    public String describe() {
        return "listen=" + where(listen) + (sflow == null ? "" : " sflow=" + where(sflow))
                + " exporters=" + (exporters.isEmpty() ? "any" : exporters.stream().map(InetAddress::getHostAddress)
                .collect(Collectors.joining(",", "[", "]")))
                + " sampling=" + sampling + " templateLifetime=" + templateLifetime.toSeconds() + "s";
    }

    private static String where(InetSocketAddress a) {
        return a == null ? "none" : a.getAddress().getHostAddress() + ":" + a.getPort();
    }
}
