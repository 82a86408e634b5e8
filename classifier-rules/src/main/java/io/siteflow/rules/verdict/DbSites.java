package io.siteflow.rules.verdict;

import io.siteflow.model.FlowRecord;
import io.siteflow.model.IpAddresses;
import io.siteflow.rules.classify.Classification;
import io.siteflow.rules.model.Category;
import io.siteflow.rules.model.Host;
import io.siteflow.rules.model.Role;
import io.siteflow.rules.model.SiteModel;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The site comparison Oracle's playbook draws: for each database host, the DB calls of the app servers in its own
 * site (local) beside those of the servers in other sites (remote), from the DB records between a {@code db} host
 * and an {@code app-server} host of the site model. Connections are compared per server (each side's connection
 * median divided by the servers it has). Not thread-safe.
 */
public final class DbSites {
    private final Map<String, Host> hosts = new HashMap<>();
    private final Map<String, Side[]> byDatabase = new TreeMap<>();

    /** One side (local or remote) of one database. */
    private static final class Side {
        final PairAggregate agg = new PairAggregate();
        final Set<String> servers = new TreeSet<>();
    }

    public DbSites(SiteModel model) {
        for (Host h : model.hosts()) {
            hosts.put(h.address(), h);
        }
    }

    /** Adds a classified record; only DB records between a db host and an app-server host count. */
    public void add(FlowRecord r, Classification c) {
        if (c.category() != Category.DB) {
            return;
        }
        Host a = host(r.src());
        Host b = host(r.dst());
        Host db = a != null && a.role().equals(Role.DB) ? a : b != null && b.role().equals(Role.DB) ? b : null;
        Host app = db == a ? b : a;
        if (db == null || app == null || !app.role().equals(Role.APP_SERVER)) {
            return;
        }
        Side side = byDatabase.computeIfAbsent(db.address(), k -> new Side[] {new Side(), new Side()})
                [app.site().equals(db.site()) ? 0 : 1];
        side.agg.add(r, c, db.address());
        side.servers.add(app.address());
    }

    private Host host(String address) {
        Host h = hosts.get(address);
        if (h == null) {
            try {
                long[] v = IpAddresses.parse(address);
                h = hosts.get(IpAddresses.format(v[0], v[1]));
            } catch (IllegalArgumentException e) {
                return null;
            }
        }
        return h;
    }

    /** One comparison per database seen, by address. */
    public List<DbSiteComparison> comparisons() {
        List<DbSiteComparison> out = new ArrayList<>();
        byDatabase.forEach((address, sides) -> {
            Host db = hosts.get(address);
            DbCallSummary local = summary(sides[0]);
            DbCallSummary remote = summary(sides[1]);
            out.add(new DbSiteComparison(address, db.name(), db.site().name(), sides[0].servers.size(),
                    sides[1].servers.size(), local, remote, ratio(remote.p50(), 1, local.p50(), 1),
                    ratio(remote.connections().median(), sides[1].servers.size(), local.connections().median(),
                            sides[0].servers.size())));
        });
        return out;
    }

    private static DbCallSummary summary(Side s) {
        DbConnectionSummary connections = s.agg.dbConnections().summary(null);
        return s.agg.dbCalls().summary(Optional.empty(), s.agg.rtt(), connections);
    }

    /** {@code (a / na) / (b / nb)}, 4 decimals; 0 when either side has nothing. */
    static BigDecimal ratio(long a, long na, long b, long nb) {
        if (a == 0 || b == 0 || na == 0 || nb == 0) {
            return BigDecimal.ZERO.setScale(4);
        }
        return BigDecimal.valueOf(a * nb).divide(BigDecimal.valueOf(b * na), 4, RoundingMode.HALF_EVEN);
    }
}
