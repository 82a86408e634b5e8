package io.siteflow.rules.importer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Reads a WebLogic {@code config.xml} and the descriptors it names (JDBC data sources under {@code jdbc/},
 * Coherence clusters under {@code coherence/}, relative to the file's directory) into a {@link Domain}.
 * Elements siteflow does not use are ignored. Problems go to {@link Findings}; nothing is thrown for bad content.
 */
public final class ConfigXmlReader {
    static final int DEFAULT_LISTEN_PORT = 7001;
    static final int DEFAULT_ADMINISTRATION_PORT = 9002;

    private final Findings findings;

    public ConfigXmlReader(Findings findings) {
        this.findings = findings;
    }

    /**
     * @return the domain, or empty when {@code config.xml} itself is not well-formed (reported)
     * @throws IOException when a file cannot be read
     */
    public Optional<Domain> read(Path configXml) throws IOException {
        Optional<XmlTree> root = XmlTree.read(configXml, configXml.toString(), findings);
        if (root.isEmpty()) {
            return Optional.empty();
        }
        XmlTree d = root.get();
        Path dir = configXml.toAbsolutePath().getParent();
        List<Domain.Server> servers = d.all("server").stream().map(this::server).toList();
        List<Domain.Cluster> clusters = d.all("cluster").stream()
                .map(c -> new Domain.Cluster(c.text("name"), c.text("cluster-messaging-mode"))).toList();
        List<Domain.JmsServer> jms = d.all("jms-server").stream()
                .map(j -> new Domain.JmsServer(j.text("name"), targets(j.text("target")))).toList();
        List<Domain.DataSource> sources = new ArrayList<>();
        for (XmlTree r : d.all("jdbc-system-resource")) {
            dataSource(r, dir, configXml).ifPresent(sources::add);
        }
        List<Domain.CoherenceCluster> coherence = new ArrayList<>();
        for (XmlTree r : d.all("coherence-cluster-system-resource")) {
            coherence(r, dir, configXml).ifPresent(coherence::add);
        }
        int adminPort = !"true".equals(d.text("administration-port-enabled")) ? 0
                : d.child("administration-port").map(p -> port(p, "domain")).orElse(DEFAULT_ADMINISTRATION_PORT);
        return Optional.of(new Domain(d.text("name"), d.text("admin-server-name"), adminPort, servers, clusters, jms,
                sources, coherence));
    }

    private Domain.Server server(XmlTree s) {
        String name = s.text("name");
        String element = "server " + name;
        int listenPort = s.child("listen-port").map(p -> port(p, element)).orElse(DEFAULT_LISTEN_PORT);
        int ssl = s.child("ssl").filter(x -> "true".equals(x.text("enabled")))
                .flatMap(x -> x.child("listen-port")).map(p -> port(p, element)).orElse(0);
        int unicast = s.child("coherence-member-config").flatMap(c -> c.child("unicast-listen-port"))
                .map(p -> port(p, element)).orElse(0);
        List<Domain.Channel> channels = s.all("network-access-point").stream().map(n -> new Domain.Channel(
                n.text("name"), n.text("protocol").isEmpty() ? "t3" : n.text("protocol"), n.text("listen-address"),
                n.child("listen-port").map(p -> port(p, element + " channel " + n.text("name"))).orElse(0),
                n.origin())).toList();
        return new Domain.Server(name, s.text("cluster"), s.text("machine"), s.text("listen-address"), listenPort,
                ssl, unicast, channels, s.child("name").map(XmlTree::origin).orElse(s.origin()));
    }

    /** The data source with its descriptor's URL; empty when the descriptor is missing or broken (reported). */
    private Optional<Domain.DataSource> dataSource(XmlTree r, Path dir, Path configXml) throws IOException {
        String name = r.text("name");
        Optional<XmlTree> ds = descriptor(dir, r.text("descriptor-file-name"), configXml, r, "data source " + name);
        Optional<XmlTree> url = ds.flatMap(x -> x.child("jdbc-driver-params")).flatMap(p -> p.child("url"));
        return ds.map(x -> new Domain.DataSource(name, url.map(XmlTree::text).orElse(""), targets(r.text("target")),
                url.map(XmlTree::origin).orElse(x.origin())));
    }

    private Optional<Domain.CoherenceCluster> coherence(XmlTree r, Path dir, Path configXml) throws IOException {
        String name = r.text("name");
        String element = "coherence cluster " + name;
        Optional<XmlTree> c = descriptor(dir, r.text("descriptor-file-name"), configXml, r, element);
        if (c.isEmpty()) {
            return Optional.empty();
        }
        Optional<XmlTree> params = c.get().child("coherence-cluster-params");
        int cluster = params.flatMap(p -> p.child("cluster-listen-port")).map(p -> port(p, element)).orElse(0);
        int unicast = params.flatMap(p -> p.child("unicast-listen-port")).map(p -> port(p, element)).orElse(0);
        return Optional.of(new Domain.CoherenceCluster(name, cluster, unicast,
                params.map(XmlTree::origin).orElse(c.get().origin())));
    }

    /** Reads a descriptor named in config.xml; a missing one is reported at the naming element. */
    private Optional<XmlTree> descriptor(Path dir, String relative, Path configXml, XmlTree naming, String element)
            throws IOException {
        Origin at = naming.child("descriptor-file-name").map(XmlTree::origin).orElse(naming.origin());
        if (relative.isEmpty()) {
            findings.error(at, element, "no descriptor-file-name");
            return Optional.empty();
        }
        Path file = dir.resolve(relative);
        String shown = configXml.resolveSibling(relative).toString();
        if (!Files.isRegularFile(file)) {
            findings.error(at, element, "descriptor " + shown + " not found");
            return Optional.empty();
        }
        return XmlTree.read(file, shown, findings);
    }

    private int port(XmlTree p, String element) {
        return Ports.parse(p.text(), p.origin(), element + ", " + p.name(), findings);
    }

    static List<String> targets(String text) {
        return Arrays.stream(text.split(",")).map(String::trim).filter(t -> !t.isEmpty()).toList();
    }
}
