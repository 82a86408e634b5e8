package io.siteflow.rules.importer;

import io.siteflow.rules.model.Category;
import io.siteflow.rules.model.Role;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** The servers of a domain: their hosts and their ports, for {@link ModelBuilder}. */
final class ServerImport {
    private final ModelBuilder builder;
    private final Domain domain;

    ServerImport(ModelBuilder builder, Domain domain) {
        this.builder = builder;
        this.domain = domain;
    }

    void addAll() {
        domain.servers().forEach(this::add);
    }

    private void add(Domain.Server s) {
        boolean admin = s.name().equals(domain.adminServerName());
        String role = admin ? Role.ADMIN.name() : Role.APP_SERVER.name();
        String element = (admin ? "admin server " : "server ") + s.name();
        if (s.listenAddress().isEmpty()) {
            builder.findings().error(s.origin(), element, "no listen-address: it listens on every address, so"
                    + " siteflow cannot place it; host left out (give it a listen-address, or list it by hand)");
        } else {
            host(s.listenAddress(), s.name(), role, s.cluster(), element + describe(s), s.origin(), element,
                    "listen-address");
        }
        Category own = admin ? Category.ADMIN : Category.CLUSTER;
        builder.ports().add(own, s.listenPort(), role, element + " listen-port");
        builder.ports().add(own, s.sslPort(), role, element + " ssl listen-port");
        builder.ports().add(Category.COHERENCE, s.unicastPort(), role, element + " coherence unicast-listen-port");
        builder.ports().add(Category.ADMIN, domain.administrationPort(), role, element + " administration-port (domain)");
        for (Domain.Channel c : s.channels()) {
            String channel = element + " channel " + c.name() + " (" + c.protocol() + ")";
            builder.ports().add(PortRules.channelCategory(c.name(), c.protocol()), c.port(), role, channel);
            if (!c.listenAddress().isEmpty() && !c.listenAddress().equals(s.listenAddress())) {
                host(c.listenAddress(), s.name() + "-" + c.name(), role, s.cluster(), channel, c.origin(), channel,
                        "listen-address");
            }
        }
    }

    private void host(String text, String name, String role, String cluster, String source, Origin at, String element,
                      String key) {
        List<String> found = builder.addresses().resolve(text, at, element, key);
        for (int i = 0; i < found.size(); i++) {
            String a = found.get(i);
            String via = a.equals(text) ? "" : " (" + text + " in the hosts file)";
            builder.place(a, found.size() == 1 ? name : name + "-" + (i + 1), role, cluster,
                    source + ", " + key + " " + a + via, at, element, key);
        }
    }

    /** Cluster, machine and JMS servers of a server, for its comment. */
    private String describe(Domain.Server s) {
        List<String> about = new ArrayList<>();
        if (!s.cluster().isEmpty()) {
            String mode = domain.clusters().stream().filter(c -> c.name().equals(s.cluster()))
                    .map(Domain.Cluster::messagingMode).filter(m -> !m.isEmpty()).findFirst()
                    .map(m -> ", " + m + " messaging").orElse("");
            about.add("cluster " + s.cluster() + mode);
        }
        if (!s.machine().isEmpty()) {
            about.add("machine " + s.machine());
        }
        StringBuilder sb = new StringBuilder(about.isEmpty() ? "" : " (" + String.join("; ", about) + ")");
        String jms = domain.jmsServers().stream().filter(j -> j.targets().contains(s.name()))
                .map(Domain.JmsServer::name).sorted().collect(Collectors.joining(", "));
        if (!jms.isEmpty()) {
            sb.append(" with JMS server ").append(jms);
        }
        return sb.toString();
    }
}
