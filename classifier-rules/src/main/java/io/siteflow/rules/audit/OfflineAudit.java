package io.siteflow.rules.audit;

import io.siteflow.model.FlowRecord;
import io.siteflow.rules.classify.Classification;
import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.model.Category;
import io.siteflow.rules.model.Flow;
import io.siteflow.rules.model.SiteModel;
import io.siteflow.rules.observer.ObserverMemory;
import io.siteflow.rules.observer.ObserverRule;
import io.siteflow.rules.observer.ObserverState;
import io.siteflow.rules.verdict.AuditPair;
import io.siteflow.rules.verdict.AuditRoutes;
import io.siteflow.rules.verdict.AuditSide;
import io.siteflow.rules.verdict.DbSites;
import io.siteflow.rules.verdict.PairAggregate;
import io.siteflow.rules.verdict.SitePairRtt;
import io.siteflow.rules.verdict.SitePairRtts;
import io.siteflow.rules.verdict.Verdict;
import io.siteflow.rules.verdict.VerdictCalculator;
import io.siteflow.rules.verdict.Window;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Classifies flow records and folds them into the aggregates of every audited pair, cumulative and per
 * tumbling window (a record belongs to the window of its {@code start}), then computes the report. A record
 * counts for an audited server only from the server's observer ({@link ObserverRule}, in record order, as the
 * stream processor applies it), so records of one flow from two observers count once. The
 * offline {@code siteflow audit} runs it over a capture; the same classes serve the streaming path.
 * Not thread-safe.
 */
public final class OfflineAudit {
    private final SiteModel model;
    private final Classifier classifier;
    private final long windowMs;
    private final AuditRoutes routes;
    private final Map<AuditPair, PairAggregate> cumulative = new LinkedHashMap<>();
    private final Map<AuditPair, TreeMap<Long, PairAggregate>> windows = new LinkedHashMap<>();
    private final DbSites dbSites;
    private final ObserverRule observers;
    /** The observer of each audited server, as the audit step's store keeps it. */
    private final ObserverState auditObservers = new ObserverMemory();
    /** The observer of each app server for the site comparison, as the database's task keeps it. */
    private final ObserverState dbSiteObservers = new ObserverMemory();
    private long records;
    private long rejected;
    private long bytes;
    private long unclassified;
    private long first = Long.MAX_VALUE;
    private long last = Long.MIN_VALUE;

    public OfflineAudit(SiteModel model, long windowMs) {
        this.model = model;
        this.classifier = new Classifier(model);
        this.windowMs = windowMs;
        this.routes = AuditRoutes.of(model);
        this.dbSites = new DbSites(model);
        this.observers = new ObserverRule(model);
        for (AuditPair p : routes.pairs()) {
            cumulative.put(p, new PairAggregate());
            windows.put(p, new TreeMap<>());
        }
    }

    public List<AuditPair> pairs() {
        return routes.pairs();
    }

    /**
     * Adds one record.
     *
     * @return false (and the record is counted as rejected) when an address of the record is no IP address
     */
    public boolean accept(FlowRecord r) {
        Flow f;
        try {
            f = Classifier.flowOf(r);
        } catch (IllegalArgumentException e) {
            rejected++;
            return false;
        }
        Classification c = classifier.classify(f);
        records++;
        bytes += r.totalBytes();
        first = Math.min(first, r.start());
        last = Math.max(last, r.end());
        if (c.category() == Category.UNKNOWN) {
            unclassified += r.totalBytes();
        }
        String observer = ObserverRule.observerOf(r);
        dbSites.add(r, c, server -> observers.counts(server, observer, dbSiteObservers));
        for (AuditSide side : routes.sides(f, c)) {
            if (observers.counts(side.pair().server(), observer, auditObservers)) {
                add(r, c, side);
            } else if (r.exporter() != null) {
                compare(r, side);
            }
        }
        return true;
    }

    /** An exporter's record of the pair that another observer counts: compared with it, not added. */
    private void compare(FlowRecord r, AuditSide side) {
        cumulative.get(side.pair()).compareExporter(r);
        long w = Window.of(r.start(), windowMs).start();
        windows.get(side.pair()).computeIfAbsent(w, k -> new PairAggregate()).compareExporter(r);
    }

    private void add(FlowRecord r, Classification c, AuditSide side) {
        cumulative.get(side.pair()).add(r, c, side.remoteAddress());
        long w = Window.of(r.start(), windowMs).start();
        windows.get(side.pair()).computeIfAbsent(w, k -> new PairAggregate()).add(r, c, side.remoteAddress());
    }

    /** The report so far; {@code received}/{@code dropped} are the observer's packet counts (0 if unknown). */
    public AuditReport report(String source, long received, long dropped) {
        boolean drops = VerdictCalculator.dropsAboveLimit(received, dropped);
        List<Verdict> total = new ArrayList<>();
        cumulative.forEach((p, agg) -> total.add(verdict(p, agg, Optional.empty(), drops)));
        TreeMap<Long, List<Verdict>> byWindow = new TreeMap<>();
        windows.forEach((p, perWindow) -> perWindow.forEach((start, agg) -> byWindow
                .computeIfAbsent(start, k -> new ArrayList<>())
                .add(verdict(p, agg, Optional.of(new Window(start, start + windowMs)), drops))));
        List<Verdict> windowed = new ArrayList<>();
        byWindow.values().forEach(windowed::addAll);
        List<SitePairRtt> rtts = SitePairRtts.ofAudited(cumulative).summaries(model.rttLimit());
        CaptureInfo info = new CaptureInfo(source, records, records == 0 ? 0 : first, records == 0 ? 0 : last,
                bytes, unclassified, rejected, received, dropped);
        return new AuditReport(info, model.version(), total, windowed, rtts, dbSites.comparisons());
    }

    private Verdict verdict(AuditPair p, PairAggregate agg, Optional<Window> w, boolean drops) {
        return VerdictCalculator.verdict(model, p, agg, w, drops);
    }
}
