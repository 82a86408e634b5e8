package io.siteflow.rules.importer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Reads a WebLogic Deploy Tooling model (YAML, as {@code discoverDomain} writes it: {@code topology} with
 * {@code Server}, {@code Cluster}, {@code NetworkAccessPoint}; {@code resources} with {@code JMSServer},
 * {@code JDBCSystemResource} and {@code CoherenceClusterSystemResource}) into the same {@link Domain} as
 * {@link ConfigXmlReader} gives for that domain. Other keys are ignored.
 */
public final class WdtModelReader {
    private final Findings findings;

    public WdtModelReader(Findings findings) {
        this.findings = findings;
    }

    /**
     * @return the domain, or empty when the file is not YAML (reported)
     * @throws IOException when it cannot be read
     */
    public Optional<Domain> read(Path model) throws IOException {
        return YamlTree.read(model, findings).map(this::domain);
    }

    private Domain domain(YamlTree root) {
        YamlTree topology = root.get("topology");
        YamlTree resources = root.get("resources");
        String admin = topology.has("AdminServerName") ? topology.get("AdminServerName").text() : "AdminServer";
        List<Domain.Server> servers = named(topology.get("Server"), this::server);
        List<Domain.Cluster> clusters = named(topology.get("Cluster"),
                (n, c) -> new Domain.Cluster(n, c.get("ClusterMessagingMode").text()));
        List<Domain.JmsServer> jms = named(resources.get("JMSServer"), (n, j) -> new Domain.JmsServer(n, targets(j)));
        List<Domain.DataSource> sources = named(resources.get("JDBCSystemResource"), (n, r) -> {
            YamlTree url = r.get("JdbcResource").get("JDBCDriverParams").get("URL");
            return new Domain.DataSource(n, url.text(), targets(r), url.origin().line() > 0 ? url.origin() : r.origin());
        });
        List<Domain.CoherenceCluster> coherence = named(resources.get("CoherenceClusterSystemResource"), (n, r) -> {
            YamlTree params = r.get("CoherenceResource").get("CoherenceClusterParams");
            String element = "coherence cluster " + n;
            return new Domain.CoherenceCluster(n, port(params, "ClusterListenPort", element, 0),
                    port(params, "UnicastListenPort", element, 0), params.origin().line() > 0 ? params.origin() : r.origin());
        });
        int adminPort = !"true".equalsIgnoreCase(topology.get("AdministrationPortEnabled").text()) ? 0
                : port(topology, "AdministrationPort", "domain", ConfigXmlReader.DEFAULT_ADMINISTRATION_PORT);
        return new Domain(topology.get("Name").text(), admin, adminPort, servers, clusters, jms, sources, coherence);
    }

    private Domain.Server server(String name, YamlTree s) {
        String element = "server " + name;
        YamlTree ssl = s.get("SSL");
        int sslPort = "true".equalsIgnoreCase(ssl.get("Enabled").text()) ? port(ssl, "ListenPort", element, 0) : 0;
        List<Domain.Channel> channels = named(s.get("NetworkAccessPoint"), (n, c) -> new Domain.Channel(n,
                c.has("Protocol") ? c.get("Protocol").text() : "t3", c.get("ListenAddress").text(),
                port(c, "ListenPort", element + " channel " + n, 0), c.origin()));
        return new Domain.Server(name, s.get("Cluster").text(), s.get("Machine").text(), s.get("ListenAddress").text(),
                port(s, "ListenPort", element, ConfigXmlReader.DEFAULT_LISTEN_PORT), sslPort,
                port(s.get("CoherenceMemberConfig"), "UnicastListenPort", element, 0), channels, s.origin());
    }

    private int port(YamlTree node, String key, String element, int absent) {
        if (!node.has(key)) {
            return absent;
        }
        YamlTree p = node.get(key);
        return Ports.parse(p.text(), p.origin(), element + ", " + key, findings);
    }

    private static List<String> targets(YamlTree j) {
        YamlTree t = j.get("Target");
        return t.items().isEmpty() ? ConfigXmlReader.targets(t.text())
                : t.items().stream().map(YamlTree::text).toList();
    }

    private interface Entry<T> {
        T make(String name, YamlTree value);
    }

    /** Each entry of a mapping of named elements ({@code Server: {soa_server1: {...}}}), in file order. */
    private static <T> List<T> named(YamlTree mapping, Entry<T> make) {
        return mapping.entries().entrySet().stream().map((Map.Entry<String, YamlTree> e) -> make.make(e.getKey(),
                e.getValue())).collect(Collectors.toList());
    }
}
