package io.siteflow.rules.verdict;

import io.siteflow.model.FlowRecord;
import io.siteflow.rules.classify.Classification;
import io.siteflow.rules.model.Host;
import io.siteflow.rules.model.SiteModel;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The site comparison Oracle's playbook draws: for each database host, the DB calls of the app servers in its own
 * site (local) beside those of the servers in other sites (remote), from the DB records between a {@code db} host
 * and an {@code app-server} host of the site model ({@link DbSiteEnds}). It keeps one aggregate per (database,
 * server), so that the offline audit (which {@link #add(FlowRecord, Classification) adds records}) and the stream
 * processor (which keeps the same aggregates in its stores and {@link #add(String, String, PairAggregate) adds
 * them}) compute the comparison with the same arithmetic. Connections are compared per server (each side's
 * connection median divided by the servers it has). Not thread-safe.
 */
public final class DbSites {
    private final DbSiteEnds ends;
    /** Database address → server address → that server's DB records with the database. */
    private final Map<String, Map<String, PairAggregate>> byDatabase = new TreeMap<>();

    public DbSites(SiteModel model) {
        this(DbSiteEnds.of(model));
    }

    public DbSites(DbSiteEnds ends) {
        this.ends = ends;
    }

    /** Adds a classified record; only DB records between a db host and an app-server host count. */
    public void add(FlowRecord r, Classification c) {
        add(r, c, server -> true);
    }

    /**
     * Adds a classified record when it is a DB record between a db host and an app-server host and
     * {@code counts} accepts its app server (the observer rule: {@link io.siteflow.rules.observer.ObserverRule}).
     */
    public void add(FlowRecord r, Classification c, Predicate<Host> counts) {
        ends.of(r, c).filter(e -> counts.test(e.server())).ifPresent(e -> aggregate(e.database().address(),
                e.server().address()).add(r, c, e.database().address()));
    }

    /**
     * Folds in the aggregate of one server's DB records with one database (as the stream processor keeps it).
     *
     * @throws IllegalArgumentException when the model has no such db or app-server host
     */
    public void add(String database, String server, PairAggregate agg) {
        if (ends.database(database).isEmpty() || ends.server(server).isEmpty()) {
            throw new IllegalArgumentException("not a db and an app-server host of the site model: " + database
                    + ", " + server);
        }
        aggregate(database, server).merge(agg);
    }

    private PairAggregate aggregate(String database, String server) {
        return byDatabase.computeIfAbsent(database, k -> new TreeMap<>()).computeIfAbsent(server,
                k -> new PairAggregate());
    }

    /** One comparison per database seen, by address. */
    public List<DbSiteComparison> comparisons() {
        List<DbSiteComparison> out = new ArrayList<>();
        byDatabase.forEach((address, servers) -> {
            Host db = ends.database(address).orElseThrow();
            PairAggregate[] sides = {new PairAggregate(), new PairAggregate()};
            int[] count = new int[2];
            servers.forEach((server, agg) -> {
                int side = ends.server(server).orElseThrow().site().equals(db.site()) ? 0 : 1;
                sides[side].merge(agg);
                count[side]++;
            });
            DbCallSummary local = summary(sides[0]);
            DbCallSummary remote = summary(sides[1]);
            out.add(new DbSiteComparison(address, db.name(), db.site().name(), count[0], count[1], local, remote,
                    ratio(remote.p50(), 1, local.p50(), 1),
                    ratio(remote.connections().median(), count[1], local.connections().median(), count[0])));
        });
        return out;
    }

    private static DbCallSummary summary(PairAggregate agg) {
        DbConnectionSummary connections = agg.dbConnections().summary(null);
        return agg.dbCalls().summary(Optional.empty(), agg.rtt(), connections);
    }

    /** {@code (a / na) / (b / nb)}, 4 decimals; 0 when either side has nothing. */
    static BigDecimal ratio(long a, long na, long b, long nb) {
        if (a == 0 || b == 0 || na == 0 || nb == 0) {
            return BigDecimal.ZERO.setScale(4);
        }
        return BigDecimal.valueOf(a * nb).divide(BigDecimal.valueOf(b * na), 4, RoundingMode.HALF_EVEN);
    }
}
