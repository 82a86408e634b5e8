package io.siteflow.rules.importer;

import java.util.List;

/**
 * A WebLogic domain as far as the site model needs it, read from {@code config.xml} or from a WDT model: the
 * two readers give equal values for the same domain (element {@link Origin}s aside). Lists keep file order.
 * Absent text is {@code ""}, an absent port 0. Immutable.
 *
 * @param name            the domain's name
 * @param adminServerName the server that is the Admin Server
 * @param administrationPort the domain-wide administration port every server listens on when the domain
 *                        enables it (WebLogic's default 9002), else 0
 */
public record Domain(String name, String adminServerName, int administrationPort, List<Server> servers,
        List<Cluster> clusters, List<JmsServer> jmsServers, List<DataSource> dataSources,
        List<CoherenceCluster> coherenceClusters) {

    public Domain {
        servers = List.copyOf(servers);
        clusters = List.copyOf(clusters);
        jmsServers = List.copyOf(jmsServers);
        dataSources = List.copyOf(dataSources);
        coherenceClusters = List.copyOf(coherenceClusters);
    }

    /**
     * A server (Admin Server or managed).
     *
     * @param listenAddress address or host name, {@code ""} when it listens on every address
     * @param listenPort    the default channel's port (WebLogic's default 7001 when not written)
     * @param sslPort       the SSL listen port when SSL is enabled, else 0
     * @param unicastPort   the Coherence unicast listen port of its member config, else 0
     */
    public record Server(String name, String cluster, String machine, String listenAddress, int listenPort,
            int sslPort, int unicastPort, List<Channel> channels, Origin origin) {
        public Server {
            channels = List.copyOf(channels);
        }
    }

    /** A network access point (custom channel) of a server; {@code listenAddress} may be {@code ""}. */
    public record Channel(String name, String protocol, String listenAddress, int port, Origin origin) {
    }

    /** A cluster and its messaging mode ({@code unicast} or {@code multicast}, {@code ""} when not written). */
    public record Cluster(String name, String messagingMode) {
    }

    /** A JMS server and the servers (or migratable targets) it is targeted to. */
    public record JmsServer(String name, List<String> targets) {
        public JmsServer {
            targets = List.copyOf(targets);
        }
    }

    /**
     * A JDBC data source, its URL ({@code ""} when none was found) and the clusters or servers it is targeted to,
     * read at {@code origin}.
     */
    public record DataSource(String name, String url, List<String> targets, Origin origin) {
        public DataSource {
            targets = List.copyOf(targets);
        }
    }

    /** A Coherence cluster system resource with its cluster and unicast listen ports (0 when not written). */
    public record CoherenceCluster(String name, int clusterPort, int unicastPort, Origin origin) {
    }
}
