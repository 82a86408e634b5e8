package io.siteflow.rules.verdict;

import io.siteflow.model.FlowRecord;
import io.siteflow.model.IpAddresses;
import io.siteflow.rules.classify.Classification;
import io.siteflow.rules.model.Category;
import io.siteflow.rules.model.Host;
import io.siteflow.rules.model.Role;
import io.siteflow.rules.model.SiteModel;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Which records the site comparison ({@link DbSites}) counts, and for which database and server: records
 * classified DB between a {@code db} host and an {@code app-server} host of the site model, in either direction.
 * Hosts are found by their canonical address text. Immutable and thread-safe.
 */
public final class DbSiteEnds {
    private final Map<String, Host> databases;
    private final Map<String, Host> servers;

    /** The database and the app server of one record. */
    public record Ends(Host database, Host server) {
    }

    private DbSiteEnds(Map<String, Host> databases, Map<String, Host> servers) {
        this.databases = Map.copyOf(databases);
        this.servers = Map.copyOf(servers);
    }

    public static DbSiteEnds of(SiteModel model) {
        Map<String, Host> dbs = new HashMap<>();
        Map<String, Host> apps = new HashMap<>();
        for (Host h : model.hosts()) {
            if (h.role().equals(Role.DB)) {
                dbs.put(h.address(), h);
            } else if (h.role().equals(Role.APP_SERVER)) {
                apps.put(h.address(), h);
            }
        }
        return new DbSiteEnds(dbs, apps);
    }

    /** The ends of a record the comparison counts; empty for any other record. */
    public Optional<Ends> of(FlowRecord r, Classification c) {
        if (c.category() != Category.DB) {
            return Optional.empty();
        }
        Host db = find(databases, r.dst());
        Host app = db == null ? null : find(servers, r.src());
        if (app == null) {
            db = find(databases, r.src());
            app = db == null ? null : find(servers, r.dst());
        }
        return app == null ? Optional.empty() : Optional.of(new Ends(db, app));
    }

    /** The db host of this address (canonical text), if the model has one. */
    public Optional<Host> database(String address) {
        return Optional.ofNullable(databases.get(address));
    }

    /** The app-server host of this address (canonical text), if the model has one. */
    public Optional<Host> server(String address) {
        return Optional.ofNullable(servers.get(address));
    }

    /** Every db host, by address. */
    public Map<String, Host> databases() {
        return databases;
    }

    /** Every app-server host, by address. */
    public Map<String, Host> servers() {
        return servers;
    }

    private static Host find(Map<String, Host> hosts, String address) {
        Host h = hosts.get(address);
        if (h != null || hosts.isEmpty()) {
            return h;
        }
        try {
            long[] v = IpAddresses.parse(address);
            return hosts.get(IpAddresses.format(v[0], v[1]));
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
