package io.siteflow.agent.config;

import io.siteflow.agent.capture.live.LiveCaptureLimits;
import io.siteflow.agent.capture.live.LiveReader;
import io.siteflow.agent.export.CollectSettings;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.kafka.KafkaClientProperties;
import io.siteflow.model.Cidr;
import io.siteflow.model.IpAddresses;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds {@link CaptureOptions}: holds every default (the {@code DEFAULT_} constants, which the command line shows
 * too) and validates once, in {@link #build()}. Sizes are given in MiB and timeouts in seconds, as on the command
 * line; messages name the command-line option. Not thread-safe; a builder may be built more than once.
 */
public final class CaptureOptionsBuilder {
    /** Live: bytes captured per packet (headers and the first payload bytes for signatures). */
    public static final int DEFAULT_SNAPLEN = LiveCaptureLimits.DEFAULT_SNAPLEN;
    /** Live: kernel capture buffer, MiB. */
    public static final int DEFAULT_BUFFER_MB = LiveCaptureLimits.DEFAULT_BUFFER_MB;
    /** Live: the range of {@code --snaplen}, as the help shows it. */
    public static final String SNAPLEN_RANGE = LiveCaptureLimits.MIN_SNAPLEN + "-" + LiveCaptureLimits.MAX_SNAPLEN;
    /** Live: the range of {@code --buffer-mb}, as the help shows it. */
    public static final String BUFFER_MB_RANGE = LiveCaptureLimits.MIN_BUFFER_MB + "-" + LiveCaptureLimits.MAX_BUFFER_MB;
    /** Live: capture workers (one socket, no fan-out). */
    public static final int DEFAULT_WORKERS = 1;
    /** Live: most capture workers; more than the cores of any site-edge host. */
    public static final int MAX_WORKERS = 64;
    /** Report lines. */
    public static final int DEFAULT_LINES = 10;
    /** Spool bound, MiB. */
    public static final long DEFAULT_SPOOL_MAX_MB = 1024;
    /** The metrics endpoint listens on this host only. */
    public static final String DEFAULT_METRICS_BIND = "127.0.0.1";

    private String iface;
    private Path file;
    private final List<String> cidrTexts = new ArrayList<>();
    private final List<String> cidr6Texts = new ArrayList<>();
    private final List<Cidr> cidrs = new ArrayList<>();
    private String agent;
    private String bootstrap;
    private Path kafkaConfig;
    private final Map<String, String> kafka = new LinkedHashMap<>();
    private String json;
    private boolean text;
    private Integer seconds;
    private int lines = DEFAULT_LINES;
    private boolean ports;
    private int snaplen = DEFAULT_SNAPLEN;
    private int bufferMb = DEFAULT_BUFFER_MB;
    private int workers = DEFAULT_WORKERS;
    private String backend = Backend.AUTO.flag();
    private String captureApi = LiveReader.RING.flag();
    private Integer metricsPort;
    private String metricsBind = DEFAULT_METRICS_BIND;
    private int activeTimeoutSeconds = FlowTableConfig.DEFAULT_ACTIVE_TIMEOUT_SECONDS;
    private int idleTimeoutSeconds = FlowTableConfig.DEFAULT_IDLE_TIMEOUT_SECONDS;
    private int maxFlows = FlowTableConfig.DEFAULT_MAX_FLOWS;
    private Path spoolDir;
    private long spoolMaxMb = DEFAULT_SPOOL_MAX_MB;
    private boolean realtime;
    private boolean sni = true;
    private boolean loop;
    private Integer passes;
    private String order = ReportOrder.TEN_SECONDS.flag();
    private boolean bytes;
    private String listen;
    private String sflow;
    private final List<String> exporters = new ArrayList<>();
    private int sampling = CollectSettings.DEFAULT_SAMPLING;
    private int templateLifetimeSeconds = CollectSettings.DEFAULT_TEMPLATE_LIFETIME_SECONDS;
    private int receivePoolMb = CollectSettings.DEFAULT_RECEIVE_POOL_MB;

    CaptureOptionsBuilder() {
    }

    /** Capture live on this interface ({@code -i}); exactly one of this and {@link #file}. */
    public CaptureOptionsBuilder iface(String iface) {
        this.iface = iface;
        return this;
    }

    /** Read this capture file ({@code -r}). */
    public CaptureOptionsBuilder file(Path file) {
        this.file = file;
        return this;
    }

    /**
     * {@code siteflow collect}: listen for flow exports on {@code ADDRESS:PORT} ({@code [IPv6]:PORT}), instead of
     * {@link #iface} and {@link #file}; parsed by {@link #build()}.
     */
    public CaptureOptionsBuilder listen(String listen) {
        this.listen = listen;
        return this;
    }

    /** {@code siteflow collect}: listen for sFlow v5 datagrams on {@code ADDRESS:PORT} too (or alone). */
    public CaptureOptionsBuilder sflow(String sflow) {
        this.sflow = sflow;
        return this;
    }

    /** Collect: accept datagrams of this exporter (an IP address); none given: every exporter. */
    public CaptureOptionsBuilder exporter(String address) {
        exporters.add(address);
        return this;
    }

    /** Collect: the sampling rate of exporters that announce none (1: not sampled). */
    public CaptureOptionsBuilder sampling(int sampling) {
        this.sampling = sampling;
        return this;
    }

    /** Collect: a template not refreshed for this long is dropped. */
    public CaptureOptionsBuilder templateLifetimeSeconds(int seconds) {
        this.templateLifetimeSeconds = seconds;
        return this;
    }

    /** Collect: the receive pool between the receiving and the decoding thread, in MiB. */
    public CaptureOptionsBuilder receivePoolMb(int mb) {
        this.receivePoolMb = mb;
        return this;
    }

    /** A remote-site network as written on the command line ({@code -F}), parsed by {@link #build()}. */
    public CaptureOptionsBuilder remoteCidr(String cidr) {
        cidrTexts.add(cidr);
        return this;
    }

    /** An IPv6 remote-site network as written after {@code -G} (iftop's IPv6 filter), parsed by {@link #build()}. */
    public CaptureOptionsBuilder remoteCidr6(String cidr) {
        cidr6Texts.add(cidr);
        return this;
    }

    /** Remote-site networks; none keeps every IP packet. */
    public CaptureOptionsBuilder remoteCidrs(List<Cidr> remote) {
        cidrs.addAll(remote);
        return this;
    }

    /** Agent id in every record; default (null): the host name. */
    public CaptureOptionsBuilder agent(String agent) {
        this.agent = agent;
        return this;
    }

    /** Kafka bootstrap servers; default (null): no Kafka. */
    public CaptureOptionsBuilder bootstrap(String bootstrap) {
        this.bootstrap = bootstrap;
        return this;
    }

    /** A Kafka client properties file, read by {@link #build()}; {@link #kafka} properties override it. */
    public CaptureOptionsBuilder kafkaConfig(Path file) {
        this.kafkaConfig = file;
        return this;
    }

    /** Extra Kafka client properties. */
    public CaptureOptionsBuilder kafka(Map<String, String> properties) {
        kafka.putAll(properties);
        return this;
    }

    /** JSON lines to "-" (standard output) or a path; default (null): none. */
    public CaptureOptionsBuilder json(String json) {
        this.json = json;
        return this;
    }

    /** The iftop-style report; on by default when neither {@link #json} nor {@link #bootstrap} is given. */
    public CaptureOptionsBuilder text(boolean text) {
        this.text = text;
        return this;
    }

    /** Live: stop after this many seconds; default (null): run until stopped. */
    public CaptureOptionsBuilder seconds(Integer seconds) {
        this.seconds = seconds;
        return this;
    }

    public CaptureOptionsBuilder lines(int lines) {
        this.lines = lines;
        return this;
    }

    public CaptureOptionsBuilder ports(boolean ports) {
        this.ports = ports;
        return this;
    }

    /** The report's sort order as written after {@code -o} (2s, 10s, 40s, source, destination); default 10s. */
    public CaptureOptionsBuilder order(String order) {
        this.order = order;
        return this;
    }

    /** Report rates in bytes per second ({@code -B}) instead of bits. */
    public CaptureOptionsBuilder bytes(boolean bytes) {
        this.bytes = bytes;
        return this;
    }

    public CaptureOptionsBuilder snaplen(int snaplen) {
        this.snaplen = snaplen;
        return this;
    }

    /** Live: capture sockets in one PACKET_FANOUT hash group, 1-{@value #MAX_WORKERS}. */
    public CaptureOptionsBuilder workers(int workers) {
        this.workers = workers;
        return this;
    }

    /** Live: {@code auto} (the default), {@code pcap} or {@code ebpf} ({@link Backend}). */
    public CaptureOptionsBuilder backend(String backend) {
        this.backend = backend;
        return this;
    }

    /** Live, {@code --backend pcap}: {@code ring} (the default) or {@code libpcap} ({@link LiveReader}). */
    public CaptureOptionsBuilder captureApi(String captureApi) {
        this.captureApi = captureApi;
        return this;
    }

    public CaptureOptionsBuilder bufferMb(int bufferMb) {
        this.bufferMb = bufferMb;
        return this;
    }

    /** Prometheus endpoint port (0: any free one); default (null): no endpoint. */
    public CaptureOptionsBuilder metricsPort(Integer metricsPort) {
        this.metricsPort = metricsPort;
        return this;
    }

    public CaptureOptionsBuilder metricsBind(String metricsBind) {
        this.metricsBind = metricsBind;
        return this;
    }

    public CaptureOptionsBuilder activeTimeoutSeconds(int seconds) {
        this.activeTimeoutSeconds = seconds;
        return this;
    }

    public CaptureOptionsBuilder idleTimeoutSeconds(int seconds) {
        this.idleTimeoutSeconds = seconds;
        return this;
    }

    public CaptureOptionsBuilder maxFlows(int maxFlows) {
        this.maxFlows = maxFlows;
        return this;
    }

    /** Default (null): {@code ~/.local/state/siteflow/spool/AGENT}. */
    public CaptureOptionsBuilder spoolDir(Path spoolDir) {
        this.spoolDir = spoolDir;
        return this;
    }

    public CaptureOptionsBuilder spoolMaxMb(long spoolMaxMb) {
        this.spoolMaxMb = spoolMaxMb;
        return this;
    }

    /** File: replay at the pace it was captured. */
    public CaptureOptionsBuilder realtime(boolean realtime) {
        this.realtime = realtime;
        return this;
    }

    /** Keep the TLS server name in records (default); false drops it ({@code --no-sni}). */
    public CaptureOptionsBuilder sni(boolean sni) {
        this.sni = sni;
        return this;
    }

    /** File with {@link #realtime}: start over at the end. */
    public CaptureOptionsBuilder loop(boolean loop) {
        this.loop = loop;
        return this;
    }

    /** With {@link #loop}: end the replay after this many passes over the file (default: until stopped). */
    public CaptureOptionsBuilder passes(Integer passes) {
        this.passes = passes;
        return this;
    }

    /**
     * Validates and builds, first bad value first.
     *
     * @throws IllegalArgumentException naming the option and the bad value, e.g.
     *                                  {@code --snaplen 10: must be 64-262144}
     */
    public CaptureOptions build() {
        boolean collecting = listen != null || sflow != null;
        if (!collecting && (iface == null) == (file == null)) {
            throw new IllegalArgumentException("one of -i IFACE and -r FILE is needed, not both");
        }
        if (collecting && (iface != null || file != null)) {
            throw new IllegalArgumentException((listen != null ? "--listen" : "--sflow")
                    + " collects flow exports: no -i IFACE or -r FILE with it");
        }
        CollectSettings collect = collecting ? collectSettings() : null;
        List<Cidr> remote = new ArrayList<>(cidrs);
        for (String c : cidrTexts) {
            try {
                remote.add(Cidr.parse(c));
            } catch (IllegalArgumentException e) {
                throw invalid("-F " + e.getMessage());
            }
        }
        for (String c : cidr6Texts) {
            remote.add(ipv6(c));
        }
        ReportOrder sort = ReportOrder.parse(order);
        if (snaplen < LiveCaptureLimits.MIN_SNAPLEN || snaplen > LiveCaptureLimits.MAX_SNAPLEN) {
            throw invalid("--snaplen " + snaplen + ": must be " + SNAPLEN_RANGE);
        }
        if (bufferMb < LiveCaptureLimits.MIN_BUFFER_MB || bufferMb > LiveCaptureLimits.MAX_BUFFER_MB) {
            throw invalid("--buffer-mb " + bufferMb + ": must be " + BUFFER_MB_RANGE);
        }
        if (workers < 1 || workers > MAX_WORKERS) {
            throw invalid("--workers " + workers + ": must be 1-" + MAX_WORKERS);
        }
        if (workers > 1 && iface == null) {
            throw invalid("--workers " + workers + " needs -i IFACE (a file is read by one thread)");
        }
        if (seconds != null && seconds <= 0) {
            throw invalid("-s " + seconds + ": must be a positive number of seconds");
        }
        if (lines < 0) {
            throw invalid("-L " + lines + ": must be 0 (all) or more");
        }
        if (metricsPort != null && (metricsPort < 0 || metricsPort > 65535)) {
            throw invalid("--metrics-port " + metricsPort + ": is not a port (0-65535)");
        }
        if (metricsBind != null) {
            try {
                IpAddresses.parse(metricsBind);
            } catch (IllegalArgumentException e) {
                throw invalid("--metrics-bind " + e.getMessage());
            }
        }
        if (activeTimeoutSeconds <= 0 || idleTimeoutSeconds <= 0) {
            throw invalid("--active-timeout and --idle-timeout must be positive");
        }
        try {
            FlowTableConfig.DEFAULTS.withMaxFlows(maxFlows);
        } catch (IllegalArgumentException e) {
            throw invalid("--max-flows: " + e.getMessage());
        }
        String agentId = agent != null ? agent : hostName();
        Map<String, String> clientProps = new LinkedHashMap<>();
        if (kafkaConfig != null) {
            try {
                clientProps.putAll(KafkaClientProperties.load(kafkaConfig));
            } catch (IOException e) {
                throw invalid("--kafka-config " + kafkaConfig + ": " + e.getMessage());
            }
        }
        clientProps.putAll(kafka);
        if ((realtime || loop) && file == null) {
            throw invalid("--realtime and --loop need -r FILE");
        }
        if (loop && !realtime) {
            throw invalid("--loop needs --realtime");
        }
        if (passes != null && !loop) {
            throw invalid("--passes needs --loop");
        }
        if (passes != null && passes < 1) {
            throw invalid("--passes " + passes + ": must be at least 1");
        }
        if (spoolMaxMb < 1) {
            throw invalid("--spool-max-mb " + spoolMaxMb + ": must be at least 1");
        }
        Path spool = spoolDir != null ? spoolDir
                : Path.of(System.getProperty("user.home"), ".local", "state", "siteflow", "spool", agentId);
        boolean report = text || json == null && bootstrap == null;
        Backend how = backend(report);
        return new CaptureOptions(iface, file, remote, agentId, bootstrap, clientProps, json, report, seconds, lines,
                ports, snaplen, bufferMb << 20, metricsPort, metricsBind, Duration.ofSeconds(activeTimeoutSeconds),
                Duration.ofSeconds(idleTimeoutSeconds), maxFlows, spool, spoolMaxMb << 20, realtime, loop,
                passes == null ? 0 : passes, sni, sort, bytes,
                workers, how, collect, captureApi());
    }

    private LiveReader captureApi() {
        try {
            return LiveReader.parse(captureApi);
        } catch (IllegalArgumentException e) {
            throw invalid(e.getMessage());
        }
    }

    private Backend backend(boolean report) {
        Backend how = Backend.parse(backend);
        if (how == Backend.EBPF && iface == null) {
            throw invalid("--backend ebpf needs -i IFACE (a capture file is read by the agent itself)");
        }
        if (how == Backend.EBPF && report) {
            throw invalid("--backend ebpf gives flows, not packets: the text report needs --backend pcap; "
                    + "give --json or --bootstrap");
        }
        return how;
    }

    private CollectSettings collectSettings() {
        if (json == null && bootstrap == null) {
            throw invalid("collect writes records: --json[=FILE] or --bootstrap HOST:PORT is needed");
        }
        if (sampling < 1) {
            throw invalid("--sampling " + sampling + ": must be 1 (not sampled) or more");
        }
        if (templateLifetimeSeconds <= 0) {
            throw invalid("--template-lifetime " + templateLifetimeSeconds + ": must be a positive number of seconds");
        }
        if (receivePoolMb < 1 || receivePoolMb > CollectSettings.MAX_RECEIVE_POOL_MB) {
            throw invalid("--receive-buffer-mb " + receivePoolMb + ": must be 1 to "
                    + CollectSettings.MAX_RECEIVE_POOL_MB + " (MiB)");
        }
        List<InetAddress> accepted = new ArrayList<>();
        for (String e : exporters) {
            accepted.add(address("--exporter " + e, e));
        }
        InetSocketAddress at = listen == null ? null : socketAddress("--listen", listen);
        InetSocketAddress sflowAt = sflow == null ? null : socketAddress("--sflow", sflow);
        return new CollectSettings(at, accepted, sampling, Duration.ofSeconds(templateLifetimeSeconds),
                CollectSettings.DEFAULT_MAX_TEMPLATES, CollectSettings.DEFAULT_MAX_DOMAINS,
                CollectSettings.DEFAULT_MAX_EXPORTERS, CollectSettings.DEFAULT_RECEIVE_BUFFER, sflowAt,
                receivePoolMb << 20);
    }

    /** {@code ADDRESS:PORT} or {@code [IPv6]:PORT} of {@code option}. */
    private InetSocketAddress socketAddress(String option, String text) {
        int colon = text.lastIndexOf(':');
        if (colon < 0) {
            throw invalid(option + " " + text + ": expected ADDRESS:PORT (0.0.0.0:2055, [::]:4739)");
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 0 || port > 65535) {
            throw invalid(option + " " + text + ": \"" + text.substring(colon + 1) + "\" is not a port (0-65535)");
        }
        return new InetSocketAddress(address(option + " " + text, host), port);
    }

    /** An IP literal (no name lookup). */
    private static InetAddress address(String option, String text) {
        try {
            IpAddresses.parse(text);
            return InetAddress.getByName(text);
        } catch (IllegalArgumentException | UnknownHostException e) {
            throw invalid(option + ": not an IP address");
        }
    }

    private static Cidr ipv6(String text) {
        Cidr c;
        try {
            c = Cidr.parse(text);
        } catch (IllegalArgumentException e) {
            throw invalid("-G " + e.getMessage());
        }
        if (c.v4()) {
            throw invalid("-G " + text + ": not an IPv6 network (IPv4 networks go with -F)");
        }
        return c;
    }

    private static IllegalArgumentException invalid(String message) {
        return new IllegalArgumentException(message);
    }

    /** The host name from $HOSTNAME or /etc/hostname, else "agent". */
    static String hostName() {
        String h = System.getenv("HOSTNAME");
        if (h != null && !h.isBlank()) {
            return h.trim();
        }
        try {
            String s = Files.readString(Path.of("/etc/hostname")).trim();
            return s.isEmpty() ? "agent" : s;
        } catch (IOException e) {
            return "agent";
        }
    }
}
