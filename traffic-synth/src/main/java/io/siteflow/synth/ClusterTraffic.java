package io.siteflow.synth;

import static io.siteflow.synth.TrafficContext.MS;
import static io.siteflow.synth.TrafficContext.SECOND;

import java.util.List;

/**
 * The non-database traffic of the stretched cluster (see {@code traffic-synth/docs/synthetic-captures.md}):
 * T3 between every pair of app servers on 7001, JMS over T3 on 8011 to the JMS servers wls1 and wls2,
 * Coherence TCMP (UDP 7574) and TMB (TCP 7574) between every pair, the admin server's port 9002 and Node
 * Manager 5556, and DNS lookups to dns1.
 */
final class ClusterTraffic {
    static final int T3_PORT = 7001;
    static final int JMS_PORT = 8011;
    static final int COHERENCE_PORT = 7574;
    static final int ADMIN_PORT = 9002;
    static final int NODE_MANAGER_PORT = 5556;
    static final int DNS_PORT = 53;
    private static final byte[] NOTHING = new byte[0];

    private final TrafficContext ctx;

    ClusterTraffic(TrafficContext ctx) {
        this.ctx = ctx;
    }

    void generate() {
        List<ClusterHost> apps = ctx.topology.appServers();
        for (int i = 0; i < apps.size(); i++) {
            for (int j = i + 1; j < apps.size(); j++) {
                t3Cluster(apps.get(i), apps.get(j));
                coherenceTmb(apps.get(i), apps.get(j));
                coherenceTcmp(apps.get(i), apps.get(j));
            }
        }
        for (ClusterHost s : apps) {
            for (ClusterHost jmsServer : List.of(ClusterTopology.WLS1, ClusterTopology.WLS2)) {
                if (!jmsServer.equals(s)) {
                    jms(s, jmsServer);
                }
            }
            adminChannel(s);
            nodeManager(s);
            dns(s);
        }
    }

    private long openTime() {
        return ctx.start + ctx.uniform(0, SECOND);
    }

    private void t3Cluster(ClusterHost a, ClusterHost b) {
        TcpConversation c = ctx.tcp(TrafficCategory.CLUSTER, a, b, T3_PORT);
        long t = openTime();
        Schedule s = new Schedule();
        if (ctx.open(c, t)) {
            s.add(t, true, T3Payloads.CLIENT_HELLO, T3Payloads.SERVER_HELLO, 100_000);
        }
        int first = T3Payloads.sizeFor(T3Payloads.CLUSTER_CLASSES);
        s.add(t, true, t3(first + ctx.between(0, 400), T3Payloads.CLUSTER_CLASSES),
                t3(first + ctx.between(0, 200), T3Payloads.CLUSTER_CLASSES), 200_000);
        for (boolean fromA : new boolean[] {true, false}) {
            for (long hb : ctx.periodic(t + ctx.uniform(0, 10 * SECOND), 10 * SECOND)) {
                s.add(hb, fromA, t3(ctx.between(120, 220)), NOTHING, 0);
            }
            for (long r : ctx.poisson(t, SECOND)) {
                s.add(r, fromA, t3(ctx.logNormal(1200, 0.8, 200, 16_000)), t3(ctx.between(120, 160)), 300_000);
            }
        }
        s.applyTo(c);
    }

    private void jms(ClusterHost client, ClusterHost server) {
        TcpConversation c = ctx.tcp(TrafficCategory.JMS, client, server, JMS_PORT);
        long t = openTime();
        Schedule s = new Schedule();
        if (ctx.open(c, t)) {
            s.add(t, true, T3Payloads.CLIENT_HELLO, T3Payloads.SERVER_HELLO, 100_000);
        }
        int first = T3Payloads.sizeFor(T3Payloads.JMS_CLASSES);
        s.add(t, true, jmsMessage(first + ctx.between(100, 600)), jmsMessage(first + ctx.between(0, 300)), 500_000);
        for (long p : ctx.poisson(t, SECOND / 2)) {
            s.add(p, true, jmsMessage(ctx.logNormal(1800, 0.7, first, 32_000)), t3(ctx.between(150, 300)),
                    ctx.uniform(500_000, 2 * MS));
        }
        for (long p : ctx.poisson(t, SECOND)) {
            s.add(p, false, jmsMessage(ctx.logNormal(1500, 0.6, first, 16_000)), t3(ctx.between(100, 200)),
                    ctx.uniform(200_000, MS));
        }
        s.applyTo(c);
    }

    private void coherenceTmb(ClusterHost a, ClusterHost b) {
        TcpConversation c = ctx.tcp(TrafficCategory.COHERENCE, a, b, COHERENCE_PORT);
        long t = openTime();
        Schedule s = new Schedule();
        if (ctx.open(c, t)) {
            s.add(t, true, CoherencePayloads.tmbHandshake(ctx.random), CoherencePayloads.tmbHandshake(ctx.random),
                    100_000);
        }
        for (boolean fromA : new boolean[] {true, false}) {
            for (long m : ctx.poisson(t, 5 * SECOND)) {
                s.add(m, fromA, CoherencePayloads.tmbMessage(ctx.random, ctx.logNormal(2000, 1.0, 100, 64_000)),
                        CoherencePayloads.tmbMessage(ctx.random, ctx.between(60, 100)), 100_000);
            }
        }
        s.applyTo(c);
    }

    private void coherenceTcmp(ClusterHost a, ClusterHost b) {
        UdpExchange u = ctx.udp(TrafficCategory.COHERENCE, a, COHERENCE_PORT, b, COHERENCE_PORT);
        long t = openTime();
        for (long hb : ctx.periodic(t, SECOND)) {
            u.requestResponse(hb, tcmp(ctx.between(60, 120)), tcmp(ctx.between(48, 64)), 50_000);
            u.serverRequest(hb + ctx.uniform(0, SECOND / 2), tcmp(ctx.between(60, 120)), tcmp(ctx.between(48, 64)),
                    50_000);
        }
        for (long d : ctx.poisson(t, SECOND / 2)) {
            u.requestResponse(d, tcmp(ctx.logNormal(600, 0.7, 64, 1468)), tcmp(ctx.between(48, 64)), 50_000);
        }
        for (long d : ctx.poisson(t, SECOND / 2)) {
            u.serverRequest(d, tcmp(ctx.logNormal(600, 0.7, 64, 1468)), tcmp(ctx.between(48, 64)), 50_000);
        }
    }

    private void adminChannel(ClusterHost server) {
        TcpConversation c = ctx.tcp(TrafficCategory.ADMIN, server, ClusterTopology.ADMIN, ADMIN_PORT);
        long t = openTime();
        Schedule s = new Schedule();
        if (ctx.open(c, t)) {
            s.add(t, true, TlsPayloads.clientHello(ctx.random, ctx.between(220, 320)),
                    TlsPayloads.serverFlight(ctx.random, ctx.between(2500, 4000)), MS);
            s.add(t, true, tls(ctx.between(300, 600)), tls(ctx.logNormal(40_000, 0.3, 20_000, 80_000)), 5 * MS);
        }
        for (long p : ctx.periodic(t + 5 * SECOND, 5 * SECOND)) {
            s.add(p, true, tls(ctx.between(200, 400)), tls(ctx.between(200, 500)), MS);
        }
        s.applyTo(c);
    }

    private void nodeManager(ClusterHost server) {
        for (long t : ctx.periodic(ctx.start + ctx.uniform(0, 30 * SECOND), 30 * SECOND)) {
            TcpConversation c = ctx.tcp(TrafficCategory.ADMIN, ClusterTopology.ADMIN, server, NODE_MANAGER_PORT);
            c.connect(t);
            c.exchange(t, true, TlsPayloads.clientHello(ctx.random, ctx.between(220, 320)),
                    TlsPayloads.serverFlight(ctx.random, ctx.between(1500, 3000)), 2 * MS);
            c.exchange(t, true, tls(ctx.between(100, 200)), tls(ctx.between(100, 300)), MS);
            c.close(t, true);
        }
    }

    private void dns(ClusterHost client) {
        List<ClusterHost> names = ctx.topology.hosts();
        for (long t : ctx.poisson(ctx.start, 10 * SECOND)) {
            ClusterHost target = names.get(ctx.random.nextInt(names.size()));
            String name = target.name() + ".fmw.example.com";
            int id = ctx.random.nextInt(0x10000);
            UdpExchange u = ctx.udp(TrafficCategory.OTHER, client, 0, ClusterTopology.DNS1, DNS_PORT);
            u.requestResponse(t, DnsPayloads.query(id, name), DnsPayloads.answer(id, name, target.inet().getAddress()),
                    200_000);
        }
    }

    private byte[] t3(int size, String... classes) {
        return T3Payloads.message(ctx.random, Math.max(size, T3Payloads.MIN_MESSAGE), classes);
    }

    private byte[] jmsMessage(int size) {
        return t3(size, T3Payloads.JMS_CLASSES);
    }

    private byte[] tcmp(int size) {
        return CoherencePayloads.tcmp(ctx.random, size);
    }

    private byte[] tls(int size) {
        return TlsPayloads.applicationData(ctx.random, size);
    }
}
