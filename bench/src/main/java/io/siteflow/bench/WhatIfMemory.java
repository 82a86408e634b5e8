package io.siteflow.bench;

import io.siteflow.bench.soak.SoakFleet;
import io.siteflow.model.FlowRecord;
import io.siteflow.rules.classify.Classification;
import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.rules.model.Host;
import io.siteflow.rules.model.SiteModel;
import io.siteflow.rules.observer.ObserverMemory;
import io.siteflow.rules.observer.ObserverRule;
import io.siteflow.rules.verdict.RttHistogram;
import io.siteflow.rules.whatif.ServerTraffic;
import io.siteflow.rules.whatif.WhatIf;
import io.siteflow.rules.whatif.WhatIfCodec;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the what-if stage's stores hold per server (stream-processor/docs/topology.md, "What-if stage"), filled
 * with the cluster soak's flow mix ({@link SoakFleet}: N app servers in region2, each to db1:1521 over 40 pooled
 * connections and every 20th record to wls1:7001): for every record, each end that is a host of the model gets the
 * record's entry under the observer rule ({@link ServerTraffic#entryOf}, {@link ObserverRule}: the functions the
 * stage calls) in its day's bounded {@link ServerTraffic}, and its RTT sample goes to its site pair's day; 8 days
 * (the retention keeps 7 to 8). Reports the stores' bytes (key + {@link WhatIfCodec} value: what RocksDB and the
 * changelog hold) per app server, for db1 (every server's pooled connections: the 64-flow bound and the count
 * estimate in use) and per site-pair day, and the heap of the live objects (what the step's write-behind holds) per
 * app server, after full collections ({@link MemoryMXBean}) as {@link FlowMemory} measures. Usage:
 * {@code WhatIfMemory [SERVERS] [RECORDS_PER_SERVER_AND_DAY] [ephemeral]} (default 200 and 2000; {@code ephemeral}:
 * every record a new connection, its source port from 20000 on, instead of the 40 pooled ones, so that each day
 * holds more than the 64 flows kept per peer site: the bound's worst case); run with {@code -XX:+UseParallelGC}.
 */
public final class WhatIfMemory {
    private static final int DAYS = 8;
    private static final long DAY_MS = 86_400_000L;
    private static final long T0 = 1_764_000_000_000L;

    private WhatIfMemory() {
    }

    public static void main(String[] args) throws Exception {
        int servers = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int perDay = args.length > 1 ? Integer.parseInt(args[1]) : 2_000;
        boolean ephemeral = args.length > 2 && args[2].equals("ephemeral");
        SoakFleet fleet = new SoakFleet(servers, "mem");
        SiteModel model = SiteModelLoader.parse("sites.yaml", fleet.sitesYaml()).orThrow();
        Classifier classifier = new Classifier(model);
        ObserverRule rule = new ObserverRule(model);
        ObserverMemory observers = new ObserverMemory();
        Map<String, Host> hosts = new HashMap<>();
        model.hosts().forEach(h -> hosts.put(h.address(), h));

        long before = usedAfterGc();
        Map<String, ServerTraffic> traffic = new HashMap<>();
        Map<String, RttHistogram> rtts = new HashMap<>();
        long records = 0;
        for (int day = 0; day < DAYS; day++) {
            long dayStart = Math.floorDiv(T0, DAY_MS) * DAY_MS + day * DAY_MS;
            for (int seq = 0; seq < perDay; seq++) {
                for (int i = 0; i < servers; i++) {
                    FlowRecord pooled = fleet.record(i, (long) day * perDay + seq, dayStart + 1_000 + seq * 10L);
                    FlowRecord r = !ephemeral ? pooled : pooled.toBuilder().endpoints(6, pooled.src(),
                            20_000 + seq % 40_000, pooled.dst(), pooled.dstPort()).build();
                    Classification c = classifier.classify(Classifier.flowOf(r));
                    records++;
                    WhatIf.rttPairOf(r, c).ifPresent(p -> rtts.computeIfAbsent(p.siteA() + "|" + p.siteB() + "|"
                            + dayStart, k -> new RttHistogram()).add(r.rttMicros()));
                    for (String end : new String[] {r.src(), r.dst()}) {
                        Host h = hosts.get(end);
                        if (h != null && rule.counts(h, ObserverRule.observerOf(r), observers)) {
                            traffic.computeIfAbsent(h.address() + "|" + dayStart, k -> ServerTraffic.bounded())
                                    .add(ServerTraffic.entryOf(r, c, h.address()));
                        }
                    }
                }
            }
        }
        long full = usedAfterGc();

        Map<String, long[]> byHost = new TreeMap<>(); // address -> [stored bytes, days, flows kept]
        traffic.forEach((key, t) -> {
            long[] v = byHost.computeIfAbsent(key.substring(0, key.indexOf('|')), k -> new long[3]);
            v[0] += key.getBytes(StandardCharsets.UTF_8).length + WhatIfCodec.toBytes(t).length;
            v[1]++;
            v[2] += t.keptFlowsByPeerSite().values().stream().mapToInt(Integer::intValue).sum();
        });
        long appBytes = 0;
        for (int i = 0; i < servers; i++) {
            appBytes += byHost.get(fleet.server(i))[0];
        }
        long rttBytes = 0;
        for (Map.Entry<String, RttHistogram> e : rtts.entrySet()) {
            rttBytes += e.getKey().getBytes(StandardCharsets.UTF_8).length + WhatIfCodec.toBytes(e.getValue()).length;
        }
        long[] db1 = byHost.get("10.1.0.10");
        long[] app0 = byHost.get(fleet.server(0));
        System.out.printf("servers %d; records %d (%d per server and day, %d days, %s connections); store keys %d "
                + "servers' days, %d site-pair days%n", servers, records, perDay, DAYS, ephemeral ? "ephemeral" : "pooled",
                traffic.size(), rtts.size());
        System.out.printf("whatif-servers, stored (key + value): %.1f B per app server (%d days, %d flows kept); "
                + "db1 %d B (%d days, %d flows kept); all hosts %d B%n", appBytes / (double) servers, app0[1],
                app0[2], db1[0], db1[1], db1[2], byHost.values().stream().mapToLong(v -> v[0]).sum());
        System.out.printf("whatif-rtts, stored: %d B (%.1f B per site-pair day)%n", rttBytes,
                rttBytes / (double) rtts.size());
        System.out.printf("heap after GC: before %d B; with every day's live objects %d B (+%d B, %.1f B per app "
                + "server, the shared hosts' and RTT days included)%n", before, full, full - before,
                (full - before) / (double) servers);
        if (traffic.isEmpty() || rtts.isEmpty()) {
            throw new IllegalStateException("nothing kept");
        }
    }

    private static long usedAfterGc() {
        MemoryMXBean mx = ManagementFactory.getMemoryMXBean();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return mx.getHeapMemoryUsage().getUsed();
    }
}
