package io.siteflow.processor.http;

import io.siteflow.processor.query.AgentStatus;
import io.siteflow.processor.query.RulesInfo;
import io.siteflow.processor.query.TalkerRow;
import io.siteflow.processor.topology.Alert;
import io.siteflow.rules.model.Category;
import io.siteflow.rules.verdict.DbConnectionSummary;
import io.siteflow.rules.verdict.Outcome;
import io.siteflow.rules.verdict.RttSummary;
import io.siteflow.rules.verdict.Verdict;
import io.siteflow.rules.verdict.VerdictCalculator;
import io.siteflow.rules.verdict.Window;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A large, deterministic {@link StaticQueries} for the dashboard benchmark and demos without Kafka:
 * {@code servers} app servers in region2 (10.2.0.0/16) audited towards region1 (10.1.0.0/16) with 20 db hosts
 * and 200 other hosts, 60 one-minute windows of history ending at {@code nowMs}, {@code hostPairs} top-talker
 * rows, one agent per server, 200 alerts and the region1-region2 RTT of the links view. Every tenth server FAILs (85% DB), every 25th is INSUFFICIENT.
 */
public final class SyntheticQueries {
    private static final int REMOTES = 220;
    private static final BigDecimal THRESHOLD = new BigDecimal("0.9");

    private SyntheticQueries() {
    }

    public static StaticQueries create(int servers, int hostPairs, long nowMs) {
        long end = Window.of(nowMs, 60_000).start();
        List<Verdict> cumulative = new ArrayList<>();
        List<Verdict> history = new ArrayList<>();
        for (int w = 60; w >= 1; w--) {
            Optional<Window> win = Optional.of(new Window(end - w * 60_000L, end - (w - 1) * 60_000L));
            for (int i = 0; i < servers; i++) {
                history.add(verdict(i, win, 100_000L + (w * 7919L + i * 104_729L) % 50_000L));
            }
        }
        for (int i = 0; i < servers; i++) {
            cumulative.add(verdict(i, Optional.empty(), 6_000_000L + i * 1000L));
        }
        cumulative.sort(java.util.Comparator.comparing(Verdict::server).thenComparing(Verdict::remoteSite));
        List<TalkerRow> talkers = new ArrayList<>();
        List<TalkerRow> ports = new ArrayList<>();
        for (int k = 0; k < hostPairs; k++) {
            double r = 1_000_000.0 / (k + 1);
            String cat = Category.all()[k % 7].name();
            talkers.add(new TalkerRow(server(k % servers), 0, remote(k / servers % REMOTES), 0, cat,
                    r, r, r, (long) (r * 40), r * 2, r / 4, r / 4, r / 4, (long) (r * 10), r / 2, 1000));
            ports.add(new TalkerRow(server(k % servers), 40_000 + k % 20_000, remote(k / servers % REMOTES), 1521, cat,
                    r, r, r, (long) (r * 40), r * 2, r / 4, r / 4, r / 4, (long) (r * 10), r / 2, 1000));
        }
        List<AgentStatus> agents = new ArrayList<>();
        for (int i = 0; i < servers; i++) {
            agents.add(new AgentStatus(String.format("wls%04d", i), "ens3", nowMs - (i % 50 == 7 ? 45_000 : 1_000),
                    1_000_000L + i, i % 13, 0, i % 5, 0, 0, i % 50 == 7, null));
        }
        List<Alert> alerts = new ArrayList<>();
        for (int a = 0; a < 200; a++) {
            alerts.add(new Alert("FAIL", server(a * 10 % servers) + " region1", nowMs - a * 30_000L,
                    "wls" + (a * 10 % servers) + " FAIL: DB share 85.00% < threshold 90%"));
        }
        StaticQueries.Snapshot s = new StaticQueries.Snapshot(cumulative, history, agents, alerts, talkers, ports,
                new RulesInfo("sha256:synthetic", yaml(servers), nowMs - 3_600_000L), true);
        // the links' RTT: region1-region2 over every server's handshakes, around the p50/p95/max its verdict states
        io.siteflow.rules.verdict.RttHistogram rtt = new io.siteflow.rules.verdict.RttHistogram();
        for (int i = 0; i < servers; i++) {
            for (int k = 0; k < 18; k++) {
                rtt.add(6500 + i % 100);
            }
            rtt.add(6800 + i % 300);
            rtt.add(7000 + i % 500);
        }
        io.siteflow.rules.verdict.SitePairRtts rtts = new io.siteflow.rules.verdict.SitePairRtts();
        rtts.merge(io.siteflow.rules.verdict.SitePair.of("region1", "region2"), rtt);
        return new StaticQueries(s, flow -> "synthetic data: no classifier for " + flow).withSitePairRtts(rtts);
    }

    static String server(int i) {
        return "10.2." + (i / 250) + "." + (i % 250 + 1);
    }

    static String remote(int j) {
        return j < 20 ? "10.1.0." + (10 + j) : "10.1.1." + (j - 19);
    }

    private static Verdict verdict(int i, Optional<Window> w, long cross) {
        boolean insufficient = i % 25 == 3;
        long c = insufficient ? cross / 1000 : cross;
        long db = i % 10 == 0 ? c * 85 / 100 : c * (92 + i % 7) / 100;
        Map<Category, Long> cats = new LinkedHashMap<>();
        cats.put(Category.DB, db);
        cats.put(Category.CLUSTER, (c - db) / 2);
        cats.put(Category.JMS, (c - db) / 4);
        cats.put(Category.COHERENCE, c - db - (c - db) / 2 - (c - db) / 4);
        Map<String, Long> addrs = new LinkedHashMap<>();
        addrs.put(remote(i % 20), db);
        for (int k = 0; k < 4; k++) {
            addrs.put(remote(20 + (i + k) % 200), (c - db) / 4 + (k == 0 ? (c - db) % 4 : 0));
        }
        Outcome o = VerdictCalculator.outcome(db, c, THRESHOLD, 1_000_000L / (w.isPresent() ? 100 : 1), false);
        String name = String.format("wls%04d", i);
        return new Verdict(server(i), name, "region2", "region1", w, o, VerdictCalculator.share(db, c), THRESHOLD, c,
                cats, addrs, new RttSummary(6500 + i % 100, 6800 + i % 300, 7000 + i % 500, 100 + i),
                new DbConnectionSummary(20, 40), "sha256:synthetic", "synthetic " + o, List.of());
    }

    private static String yaml(int servers) {
        StringBuilder y = new StringBuilder("threshold: 0.90\nsites:\n  region1: { cidrs: [10.1.0.0/16] }\n"
                + "  region2: { cidrs: [10.2.0.0/16] }\nhosts:\n");
        for (int j = 0; j < REMOTES; j++) {
            y.append("  - { address: ").append(remote(j)).append(", name: ").append(j < 20 ? "db" + j : "app" + j)
                    .append(", role: ").append(j < 20 ? "db" : "app-server").append(" }\n");
        }
        for (int i = 0; i < servers; i++) {
            y.append("  - { address: ").append(server(i)).append(", name: ").append(String.format("wls%04d", i))
                    .append(", role: app-server }\n");
        }
        return y.toString();
    }
}
