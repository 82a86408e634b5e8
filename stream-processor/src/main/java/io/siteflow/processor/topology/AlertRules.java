package io.siteflow.processor.topology;

import io.siteflow.processor.topology.store.KeyTexts;
import io.siteflow.processor.topology.store.WriteBehind;
import io.siteflow.rules.model.Category;
import io.siteflow.rules.model.RttLimit;
import io.siteflow.rules.verdict.DbCallSummary;
import io.siteflow.rules.verdict.Outcome;
import io.siteflow.rules.verdict.RttSummary;
import io.siteflow.rules.verdict.Verdict;
import java.time.Instant;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.WindowStore;

/**
 * The alert rules. Window alerts are raised on a change of state, per audited pair (server × remote site), at the
 * window end: {@code FAIL} (key = server) when a window's verdict is FAIL and the previous judged window's was not;
 * {@code RTT} (key = {@code site|remoteSite}) when a window's RTT p95 is above the RTT limit in force (Oracle's
 * 10 ms, or the site model's {@code rttLimitMs} when stricter: {@code SiteModel.rttLimit()}) and the
 * previous window with samples' was not (p95: the definition of the docs, the Grafana dashboard and the
 * Prometheus rule). While a pair stays in the state, the alert is raised again every {@code repeatMs} of event
 * time; when it leaves (a PASS window; an RTT p95 within the limit) a {@code CLEARED} alert with the same key says
 * so. {@code DB_CALLS} (key = server), in the same way: when a window's DB calls spend more of their median on the
 * RTT than the site model's {@code dbCallBudget.networkShare} allows and the previous window with calls' did not;
 * cleared by a window with calls within the budget (or once the model sets none). An INSUFFICIENT window, one
 * without RTT samples or one without DB calls changes no state of its kind. The state (time of the last alert of
 * the pair) is kept in the meta store, so a restart neither forgets nor repeats it.
 * {@code NEW_PEER} (key = server): a cross-site (category, peer, port) of a server first seen after the baseline
 * period. The baseline runs for the configured event time from the first record this task processed (its start
 * is kept in the meta store, so a restart does not start a new baseline); the port is the responder's (service)
 * port. Every alert is also kept in the alerts window store for queries. Not thread-safe (one per task).
 */
final class AlertRules {
    static final String BASELINE_KEY = TopologySpec.BASELINE_START_KEY;
    /** Prefix of the meta-store keys of the pairs in an alert state: {@code alert|TYPE|server|remoteSite}. */
    static final String STATE_PREFIX = "alert|";
    private final long baselineMs;
    private final long repeatMs;
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

    AlertRules(long baselineMs, long repeatMs, WriteBehind<Long> meta, KeyValueStore<String, Long> peers,
               WindowStore<String, String> alerts) {
        this.baselineMs = baselineMs;
        this.repeatMs = repeatMs;
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
     * FAIL, RTT, DB_CALLS and CLEARED alerts of a closed-window verdict, at the window end; DB_CALLS when the site
     * model's {@code dbCallBudget.networkShare} is set and the verdict's {@code dbCalls.networkShare} is above it;
     * RTT when the window's p95 is above {@code rttLimit} ({@code SiteModel.rttLimit()}).
     */
    List<Alert> window(Verdict v, Optional<BigDecimal> dbCallBudget, RttLimit rttLimit) {
        List<Alert> out = new ArrayList<>();
        long time = v.window().orElseThrow().end();
        String who = v.name() + " (" + v.server() + ") towards " + v.remoteSite();
        if (v.verdict() != Outcome.INSUFFICIENT) {
            state("FAIL", v, v.server(), time, v.verdict() == Outcome.FAIL, who + ": FAIL, " + v.reason(),
                    who + ": PASS again, " + v.reason()).ifPresent(out::add);
        }
        RttSummary rtt = v.rttMicros();
        if (rtt.samples() > 0) {
            String between = " between " + v.site() + " and " + v.remoteSite() + " (seen by " + v.server() + ")";
            String limit = rttLimit.source() == RttLimit.Source.ORACLE ? "the 10 ms limit" : rttLimit.text();
            state("RTT", v, v.site() + "|" + v.remoteSite(), time, rttLimit.exceededBy(rtt.p95()),
                    "RTT p95 " + rtt.p95() + " us" + between + " is above " + limit,
                    "RTT p95 " + rtt.p95() + " us" + between + " is within " + limit + " again").ifPresent(out::add);
        }
        DbCallSummary d = v.dbCalls();
        if (d.calls() > 0) {
            String cost = ": the RTT (" + d.rttMicros() + " us) is " + d.networkShare().toPlainString()
                    + " of the DB call median (" + d.p50() + " us), ";
            String budget = dbCallBudget.map(BigDecimal::toPlainString).orElse("none");
            state("DB_CALLS", v, v.server(), time, dbCallBudget.isPresent() && d.exceeds(dbCallBudget.get()),
                    who + cost + "above the budget " + budget, who + cost + "within the budget " + budget + " again")
                    .ifPresent(out::add);
        }
        return out;
    }

    /**
     * The alert of a pair's state {@code type} after a window: {@code type} when it starts or is due again,
     * {@code CLEARED} when it ends, none otherwise.
     */
    private Optional<Alert> state(String type, Verdict v, String key, long time, boolean in, String raised,
                                  String cleared) {
        String stateKey = STATE_PREFIX + type + "|" + v.server() + "|" + v.remoteSite();
        Long last = meta.get(stateKey);
        if (!in) {
            if (last == null) {
                return Optional.empty();
            }
            meta.remove(stateKey);
            return Optional.of(keep(new Alert("CLEARED", key, time, cleared)));
        }
        if (last != null && time < last + repeatMs) {
            return Optional.empty();
        }
        meta.put(stateKey, time);
        return Optional.of(keep(new Alert(type, key, time, last == null ? raised
                : raised + " (repeated: still so since the alert of " + Instant.ofEpochMilli(last) + ")")));
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
