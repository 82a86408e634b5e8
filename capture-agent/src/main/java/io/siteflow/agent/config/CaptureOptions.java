package io.siteflow.agent.config;

import io.siteflow.agent.capture.live.LiveReader;
import io.siteflow.agent.export.CollectSettings;
import io.siteflow.model.Cidr;
import io.siteflow.model.cli.Secrets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The capture and collect commands' settings. Built and validated once, with the defaults in one place, by
 * {@link #builder()}. Exactly one of {@code iface}, {@code file} and {@code collect} is set.
 *
 * @param iface          live interface, or null
 * @param file           capture file, or null
 * @param remoteCidrs    {@code -F} networks (empty: keep everything)
 * @param agent          agent id
 * @param bootstrap      Kafka bootstrap servers, or null for no Kafka
 * @param kafka          extra Kafka client properties
 * @param json           JSON lines target: "-" for standard output, a path, or null for none
 * @param text           print the iftop-style report
 * @param seconds        live: stop after this long (iftop {@code -s}); null runs until a signal
 * @param lines          report lines, 0 for all
 * @param ports          report port pairs
 * @param snaplen        live: bytes captured per packet
 * @param bufferBytes    live: kernel ring buffer
 * @param metricsPort    Prometheus endpoint port, or null
 * @param metricsBind    address the Prometheus endpoint listens on (an IP literal); null for loopback
 * @param activeTimeout  interim record period
 * @param idleTimeout    idle end of a flow
 * @param maxFlows       flow table bound
 * @param spoolDir       where records wait while Kafka is unreachable
 * @param spoolMaxBytes  spool bound; beyond it the newest records are dropped and counted
 * @param realtime       file: replay at the pace it was captured, packet times moved to now
 * @param loop           file with {@code realtime}: start over at the end
 * @param passes         with {@code loop}: passes over the file before the replay ends; 0 until stopped
 * @param sni            keep the TLS server name ({@code sni}, the one record field read from payload) in records;
 *                       false with {@code --no-sni}
 * @param order          report sort order (iftop {@code -o})
 * @param bytes          report rates in bytes per second (iftop {@code -B}) instead of bits
 * @param workers        live: capture sockets in one PACKET_FANOUT hash group, each with its own decoder and
 *                       flow table (1: one socket, no fan-out); ignored by {@link Backend#EBPF}
 * @param backend        live: packets through libpcap ({@link Backend#PCAP}) or flows from the kernel
 * @param collect        {@code siteflow collect}: the flow-export listener's settings, or null
 * @param captureApi     live, {@link Backend#PCAP}: how packets are read ({@code --capture-api}: the TPACKET_V3 ring
 *                       from Java, the default, or libpcap's {@code pcap_next_ex})
 */
public record CaptureOptions(
        String iface,
        Path file,
        List<Cidr> remoteCidrs,
        String agent,
        String bootstrap,
        Map<String, String> kafka,
        String json,
        boolean text,
        Integer seconds,
        int lines,
        boolean ports,
        int snaplen,
        int bufferBytes,
        Integer metricsPort,
        String metricsBind,
        Duration activeTimeout,
        Duration idleTimeout,
        int maxFlows,
        Path spoolDir,
        long spoolMaxBytes,
        boolean realtime,
        boolean loop,
        int passes,
        boolean sni,
        ReportOrder order,
        boolean bytes,
        int workers,
        Backend backend,
        CollectSettings collect,
        LiveReader captureApi) {

    public CaptureOptions {
        remoteCidrs = List.copyOf(remoteCidrs);
        kafka = Map.copyOf(kafka);
    }

    /** Options that read live packets from the TPACKET_V3 ring ({@link LiveReader#RING}, the default). */
    public CaptureOptions(String iface, Path file, List<Cidr> remoteCidrs, String agent, String bootstrap,
            Map<String, String> kafka, String json, boolean text, Integer seconds, int lines, boolean ports,
            int snaplen, int bufferBytes, Integer metricsPort, String metricsBind, Duration activeTimeout,
            Duration idleTimeout, int maxFlows, Path spoolDir, long spoolMaxBytes, boolean realtime, boolean loop,
            int passes, boolean sni, ReportOrder order, boolean bytes, int workers, Backend backend,
            CollectSettings collect) {
        this(iface, file, remoteCidrs, agent, bootstrap, kafka, json, text, seconds, lines, ports, snaplen,
                bufferBytes, metricsPort, metricsBind, activeTimeout, idleTimeout, maxFlows, spoolDir, spoolMaxBytes,
                realtime, loop, passes, sni, order, bytes, workers, backend, collect, LiveReader.RING);
    }

    /** A builder with every default; {@link CaptureOptionsBuilder#build()} validates. */
    public static CaptureOptionsBuilder builder() {
        return new CaptureOptionsBuilder();
    }

    public boolean live() {
        return iface != null;
    }

    /** True for {@code siteflow collect}: flows exported by routers arrive on a UDP socket. */
    public boolean collecting() {
        return collect != null;
    }

    /**
     * True when packets or flows arrive in real time (live capture, a paced replay, flow exports): the hand-off and
     * idle ticks apply.
     */
    public boolean timely() {
        return live() || realtime || collecting();
    }

    /** The interface, file name or listening address, as records and reports name the capture point. */
    public String sourceName() {
        if (collecting()) {
            var at = collect.listen() != null ? collect.listen() : collect.sflow();
            return at.getAddress().getHostAddress() + ":" + at.getPort();
        }
        return live() ? iface : file.getFileName().toString();
    }

    /** Settings for the start-up log line, Kafka properties in key order with secrets masked ({@link Secrets}). */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        sb.append(live() ? "iface=" + iface : collecting() ? collect.describe() : "file=" + file);
        sb.append(" remote=").append(remoteCidrs).append(" agent=").append(agent);
        if (bootstrap != null) {
            sb.append(" bootstrap=").append(bootstrap);
        }
        new TreeMap<>(kafka).forEach((k, v) -> sb.append(" kafka.").append(k).append('=').append(Secrets.mask(k, v)));
        sb.append(" snaplen=").append(snaplen).append(" buffer=").append(bufferBytes)
                .append(" active=").append(activeTimeout.toSeconds()).append("s idle=")
                .append(idleTimeout.toSeconds()).append("s maxFlows=").append(maxFlows)
                .append(" workers=").append(workers);
        if (!sni) {
            sb.append(" sni=off");
        }
        if (backend != Backend.AUTO) {
            sb.append(" backend=").append(backend.flag());
        }
        if (live() && backend != Backend.EBPF && captureApi == LiveReader.LIBPCAP) {
            sb.append(" captureApi=libpcap");
        }
        return sb.toString();
    }

    /** As {@link #describe()}: a record's own {@code toString} would print Kafka secrets in clear. */
    @Override
    public String toString() {
        return "CaptureOptions[" + describe() + "]";
    }
}
