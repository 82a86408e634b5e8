package io.siteflow.processor.topology;

import io.siteflow.processor.topology.store.KeyTexts;
import io.siteflow.processor.topology.store.WriteBehind;
import io.siteflow.rules.model.Category;
import io.siteflow.rules.verdict.DbCallSummary;
import io.siteflow.rules.verdict.Outcome;
import io.siteflow.rules.verdict.RttSummary;
import io.siteflow.rules.verdict.SitePairRtt;
import io.siteflow.rules.verdict.Verdict;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;

/**
 * The alert rules: a FAIL window verdict ({@code FAIL}, key = server); a window whose RTT median between the
 * server's site and the remote site is above Oracle's 10 ms limit ({@code RTT}, key = {@code site|remoteSite}); a
 * window whose DB calls spend more of their median on the RTT than the site model's {@code dbCallBudget} allows
 * ({@code DB_CALLS}, key = server);
 * a cross-site (category, peer, port) of a server first seen after the baseline period ({@code NEW_PEER},
 * key = server). The baseline runs for the configured event time from the first record this task processed
 * (its start is kept in the meta store, so a restart does not start a new baseline); the port is the
 * responder's (service) port. Every alert is also kept in the alerts window store for queries. Not
 * thread-safe (one per task).
 */
final class AlertRules {
    static final String BASELINE_KEY = "baseline-start";
    private final long baselineMs;
    private final WriteBehind<Long> meta;
    private final WriteBehind<Long> peers;
    private final WindowStore<String, String> alerts;
    private final KeyTexts<PeerKey> peerKeys = new KeyTexts<>(PeerKey::text);

    /** A key of the peers store: server, category, peer address, responder port. */
    private record PeerKey(String server, Category category, String peer, int port) {
        String text() {
            return server + "|" + category.name() + "|" + peer + "|" + port;
        }
    }

    AlertRules(long baselineMs, WriteBehind<Long> meta, KeyValueStore<String, Long> peers,
               WindowStore<String, String> alerts) {
        this.baselineMs = baselineMs;
        this.meta = meta;
        this.peers = new WriteBehind<>(peers);
        this.alerts = alerts;
    }

    /** A NEW_PEER alert when this (server, category, peer, port) is new and the baseline is over. */
    Optional<Alert> peer(String server, Category category, String peer, int port, long timeMs) {
        Long start = meta.get(BASELINE_KEY);
        if (start == null) {
            start = timeMs;
            meta.put(BASELINE_KEY, start);
        }
        String key = peerKeys.of(new PeerKey(server, category, peer, port));
        if (peers.get(key) != null) {
            return Optional.empty();
        }
        peers.put(key, timeMs);
        if (timeMs < start + baselineMs) {
            return Optional.empty();
        }
        return Optional.of(keep(new Alert("NEW_PEER", server, timeMs, "new cross-site peer of " + server + ": "
                + category.name() + " with " + peer + " port " + port + ", not seen in the baseline")));
    }

    /**
     * FAIL, RTT and DB_CALLS alerts of a closed-window verdict, at the window end; DB_CALLS when the site model's
     * {@code dbCallBudget.networkShare} is set and the verdict's {@code dbCalls.networkShare} is above it.
     */
    List<Alert> window(Verdict v, Optional<BigDecimal> dbCallBudget) {
        List<Alert> out = new ArrayList<>();
        long time = v.window().orElseThrow().end();
        if (v.verdict() == Outcome.FAIL) {
            out.add(keep(new Alert("FAIL", v.server(), time, v.name() + " (" + v.server() + ") towards "
                    + v.remoteSite() + ": FAIL, " + v.reason())));
        }
        RttSummary rtt = v.rttMicros();
        if (rtt.samples() > 0 && rtt.p50() > SitePairRtt.ORACLE_LIMIT_MICROS) {
            out.add(keep(new Alert("RTT", v.site() + "|" + v.remoteSite(), time, "RTT median " + rtt.p50()
                    + " us between " + v.site() + " and " + v.remoteSite() + " (seen by " + v.server()
                    + ") is above the 10 ms limit")));
        }
        DbCallSummary d = v.dbCalls();
        if (dbCallBudget.isPresent() && d.exceeds(dbCallBudget.get())) {
            out.add(keep(new Alert("DB_CALLS", v.server(), time, v.name() + " (" + v.server() + ") towards "
                    + v.remoteSite() + ": the RTT (" + d.rttMicros() + " us) is " + d.networkShare().toPlainString()
                    + " of the DB call median (" + d.p50() + " us), above the budget "
                    + dbCallBudget.get().toPlainString())));
        }
        return out;
    }

    /** Writes the peers seen since the last commit to their store (the task commits). */
    void flush() {
        peers.flush();
    }

    /** Forgets the changes since the last flush. */
    void discard() {
        peers.discard();
    }

    private Alert keep(Alert a) {
        alerts.put(a.key(), AlertJson.toJson(a), a.timeMs());
        return a;
    }
}
