package io.siteflow.bench;

import io.siteflow.model.IpAddresses;
import io.siteflow.model.L7Protocol;
import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.rules.model.Flow;
import io.siteflow.rules.model.SiteModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A synthetic but realistic site model for benchmarks: 50 sites (an IPv4 /16 and an IPv6 /48 each), 5,000
 * hosts (100 per site, roles db/app-server/admin/jms-server/coherence/frontend, one in ten on IPv6) and
 * 185 user rules of every condition kind followed by the FMW defaults (200 rules in all); plus a flow mix
 * dominated by what a stretched FMW cluster sends (JDBC, T3, Coherence) with a share of flows that match
 * no rule. Deterministic (fixed seeds).
 */
public final class SyntheticModel {
    static final int SITES = 50;
    static final int HOSTS_PER_SITE = 100;
    private static final String[] ROLES = {"db", "app-server", "app-server", "app-server", "app-server",
        "app-server", "admin", "jms-server", "coherence", "frontend"};

    private SyntheticModel() {
    }

    /** The model's YAML text. */
    public static String yaml() {
        StringBuilder sb = new StringBuilder("threshold: 0.90\nsites:\n");
        for (int s = 0; s < SITES; s++) {
            sb.append("  site").append(s).append(": { cidrs: [10.").append(s).append(".0.0/16, \"fd00:")
                    .append(Integer.toHexString(s + 1)).append("::/48\"] }\n");
        }
        sb.append("hosts:\n");
        for (int s = 0; s < SITES; s++) {
            for (int h = 0; h < HOSTS_PER_SITE; h++) {
                sb.append("  - { address: \"").append(address(s, h)).append("\", name: h").append(s).append('-')
                        .append(h).append(", role: ").append(ROLES[h % ROLES.length]).append(" }\n");
            }
        }
        sb.append("rules:\n");
        for (int i = 0; i < 40; i++) {
            sb.append("  - { name: svc-").append(i).append(", category: OTHER, proto: tcp, ports: [\"")
                    .append(10000 + i * 10).append('-').append(10005 + i * 10).append("\"], peerRoles: [app-server] }\n");
        }
        for (int i = 0; i < 40; i++) {
            sb.append("  - { name: site-admin-").append(i).append(", category: ADMIN, ports: [").append(20000 + i)
                    .append("], peerSites: [site").append(i).append("] }\n");
        }
        for (int i = 0; i < 40; i++) {
            sb.append("  - { name: backup-").append(i).append(", category: OTHER, proto: udp, cidrs: [10.").append(i)
                    .append(".200.0/24] }\n");
        }
        for (int i = 0; i < 30; i++) {
            sb.append("  - { name: web-").append(i).append(", category: FRONTEND, l7: [http], peerRoles: [frontend],")
                    .append(" ports: [").append(8100 + i).append("] }\n");
        }
        for (int i = 0; i < 35; i++) {
            sb.append("  - { name: grid-").append(i).append(", category: CLUSTER, ports: [\"").append(30000 + i * 100)
                    .append('-').append(30050 + i * 100).append("\"] }\n");
        }
        return sb.toString();
    }

    static String address(int site, int host) {
        return host % 10 == 9 ? "fd00:" + Integer.toHexString(site + 1) + "::" + Integer.toHexString(host + 1)
                : "10." + site + "." + (host / 50) + "." + (host % 50 + 1);
    }

    public static SiteModel model() {
        try {
            return SiteModelLoader.parse("synthetic.yaml", yaml()).orThrow();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code n} flows of the mix, between random sites. */
    public static List<Flow> flows(int n, long seed) {
        Random rnd = new Random(seed);
        List<Flow> out = new ArrayList<>(n);
        while (out.size() < n) {
            int kind = rnd.nextInt(10);
            int s1 = rnd.nextInt(SITES);
            int s2 = rnd.nextInt(SITES);
            int app = 1 + rnd.nextInt(5) + 10 * rnd.nextInt(9);
            int peer = switch (kind) {
                case 0, 1, 2, 3 -> 10 * rnd.nextInt(9);
                case 4, 5 -> 1 + 10 * rnd.nextInt(9);
                default -> rnd.nextInt(HOSTS_PER_SITE - 1);
            };
            boolean v6 = rnd.nextInt(10) == 0;
            if (v6) {
                app = 9 + 10 * rnd.nextInt(9);
                peer = 9 + 10 * rnd.nextInt(9);
            }
            long[] a = IpAddresses.parse(address(s1, app));
            long[] b = IpAddresses.parse(address(s2, peer));
            out.add(switch (kind) {
                case 0, 1, 2 -> new Flow(6, a[0], a[1], 40000, b[0], b[1], 1521, L7Protocol.ORACLE_TNS);
                case 3 -> new Flow(6, a[0], a[1], 40000, b[0], b[1], 6200, L7Protocol.UNKNOWN);
                case 4 -> new Flow(6, a[0], a[1], 40000, b[0], b[1], 7001, L7Protocol.T3);
                case 5 -> new Flow(6, a[0], a[1], 40000, b[0], b[1], 7001, L7Protocol.T3_JMS);
                case 6 -> new Flow(17, a[0], a[1], 7574, b[0], b[1], 7574, L7Protocol.UNKNOWN);
                case 7 -> new Flow(6, a[0], a[1], 40000, b[0], b[1], 10000 + rnd.nextInt(400), L7Protocol.UNKNOWN);
                case 8 -> new Flow(6, a[0], a[1], 40000, b[0], b[1], 30000 + rnd.nextInt(3500), L7Protocol.UNKNOWN);
                default -> new Flow(6, a[0], a[1], 40000, b[0], b[1], 1024 + rnd.nextInt(60000), L7Protocol.UNKNOWN);
            });
        }
        return out;
    }
}
