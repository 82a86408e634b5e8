package io.siteflow.synth;

import static io.siteflow.synth.TrafficContext.MS;
import static io.siteflow.synth.TrafficContext.SECOND;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * JDBC traffic: each app server holds a pool of long-lived Oracle Net connections to db1:1521 (servers
 * outside the database's region hold twice as many), opened in the first half second with a TNS CONNECT,
 * ACCEPT and three authentication round trips, then SQL round trips at random times on random pooled
 * connections until the server's database bytes reach their target: for a server with a DB share {@code f}
 * the target is {@code f / (1 - f)} times its cross-site non-DB bytes, so its share comes out at {@code f}
 * (at most one round trip above); for the others a fixed rate. A SQL round trip's service time is random (0.2-5 ms)
 * unless the scenario fixes it. Run after {@link ClusterTraffic}.
 */
final class DbTraffic {
    static final int ORACLE_PORT = 1521;
    static final String SERVICE = "soainfra.fmw.example.com";
    /** Rough IP bytes of one SQL round trip, to plan how many to schedule. */
    private static final long MEAN_ROUND_TRIP_BYTES = 5_000;

    private final TrafficContext ctx;
    /** Fixed service time of a SQL round trip, or -1 for a random one. */
    private final long serviceNanos;

    DbTraffic(TrafficContext ctx, long serviceNanos) {
        this.ctx = ctx;
        this.serviceNanos = serviceNanos;
    }

    /**
     * @param localPoolSize     connections per server in the database's region (others get twice as many)
     * @param shares            DB share of cross-site bytes per app server name
     * @param localBytesPerSec  DB bytes per second of the servers without a share
     */
    void generate(int localPoolSize, Map<String, Double> shares, long localBytesPerSec) {
        for (ClusterHost server : ctx.topology.appServers()) {
            boolean remote = !server.region().equals(ClusterTopology.DB1.region());
            List<TcpConversation> pool = openPool(server, remote ? 2 * localPoolSize : localPoolSize);
            Double share = shares.get(server.name());
            long target = share != null ? targetFor(server, share)
                    : localBytesPerSec * (ctx.end - ctx.start) / SECOND;
            fill(pool, target);
        }
    }

    private long targetFor(ClusterHost server, double share) {
        long other = 0;
        for (ScenarioConversation c : ctx.conversations) {
            if (c.category() != TrafficCategory.DB && c.crossSiteFor(server)) {
                other += c.ipBytes();
            }
        }
        return (long) Math.ceil(other * share / (1 - share));
    }

    private List<TcpConversation> openPool(ClusterHost server, int size) {
        List<TcpConversation> pool = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            TcpConversation c = ctx.tcp(TrafficCategory.DB, server, ClusterTopology.DB1, ORACLE_PORT);
            long t = ctx.start + ctx.uniform(0, SECOND / 2);
            if (ctx.open(c, t)) {
                c.exchange(t, true, TnsPayloads.connect(ClusterTopology.DB1.address(), ORACLE_PORT, SERVICE),
                        TnsPayloads.accept(), MS);
                for (int k = 0; k < 3; k++) {
                    c.exchange(t, true, tns(ctx.between(150, 400), 0x03), tns(ctx.between(100, 1500), 0x08), MS);
                }
            }
            pool.add(c);
        }
        return pool;
    }

    private void fill(List<TcpConversation> pool, long target) {
        long bytes = bytes(pool);
        long planned = Math.max(0, (target - bytes) / MEAN_ROUND_TRIP_BYTES);
        long from = ctx.start + SECOND;
        long meanGap = Math.max(1, (ctx.end - from) / Math.max(1, planned + planned / 10));
        for (long t : ctx.poisson(from, meanGap)) {
            if (bytes >= target) {
                return;
            }
            bytes += roundTrip(pool.get(ctx.random.nextInt(pool.size())), t);
        }
        while (bytes < target) {
            bytes += roundTrip(pool.get(ctx.random.nextInt(pool.size())), ctx.end - ctx.uniform(0, SECOND / 2));
        }
    }

    /** One SQL round trip on {@code c} at {@code t}; returns the IP bytes it added. */
    private long roundTrip(TcpConversation c, long t) {
        long before = c.fromClient().ipBytes() + c.fromServer().ipBytes();
        byte[] call = tns(ctx.logNormal(400, 0.6, 150, 4000), 0x03);
        byte[] rows = tns(ctx.logNormal(2000, 1.2, 60, 200_000), 0x06);
        long random = ctx.uniform(200_000, 5 * MS);   // drawn either way: the rest of the scenario stays the same
        c.exchange(t, true, call, rows, serviceNanos >= 0 ? serviceNanos : random);
        return c.fromClient().ipBytes() + c.fromServer().ipBytes() - before;
    }

    private static long bytes(List<TcpConversation> pool) {
        long sum = 0;
        for (TcpConversation c : pool) {
            sum += c.fromClient().ipBytes() + c.fromServer().ipBytes();
        }
        return sum;
    }

    private byte[] tns(int size, int ttc) {
        return TnsPayloads.data(ctx.random, Math.max(size, TnsPayloads.MIN_DATA), ttc);
    }
}
