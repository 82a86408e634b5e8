package io.siteflow.rules.verdict;

import io.siteflow.rules.model.Category;
import io.siteflow.rules.model.SiteModel;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The verdict arithmetic, as pure functions: {@code share = db / cross}; PASS when {@code share >= threshold},
 * compared exactly ({@code db >= threshold * cross} in decimal, so a share of exactly 0.90 passes a 0.90
 * threshold); FAIL below; INSUFFICIENT when {@code cross < minCrossBytes} or the observer dropped more than
 * 0.1% of its packets. Thread-safe.
 */
public final class VerdictCalculator {
    private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

    private VerdictCalculator() {
    }

    /** The outcome alone. */
    public static Outcome outcome(long db, long cross, BigDecimal threshold, long minCrossBytes, boolean drops) {
        if (drops || cross < minCrossBytes || cross == 0) {
            return Outcome.INSUFFICIENT;
        }
        BigDecimal needed = threshold.multiply(BigDecimal.valueOf(cross));
        return BigDecimal.valueOf(db).compareTo(needed) >= 0 ? Outcome.PASS : Outcome.FAIL;
    }

    /** {@code db / cross} rounded down to 4 decimals; 0 when {@code cross} is 0. */
    public static BigDecimal share(long db, long cross) {
        if (cross == 0) {
            return BigDecimal.ZERO.setScale(4);
        }
        return BigDecimal.valueOf(db).divide(BigDecimal.valueOf(cross), 4, RoundingMode.DOWN);
    }

    /** True when {@code dropped} is more than 0.1% of the packets the observer saw ({@code received + dropped}). */
    public static boolean dropsAboveLimit(long received, long dropped) {
        return dropped * 1000 > received + dropped;
    }

    /**
     * The verdict of one pair under a site model (its threshold, minimum cross-site bytes and version): the one
     * function behind the offline audit's verdicts, the topology's window verdicts and the query side's
     * cumulative ones.
     *
     * @param window the window, empty for the cumulative verdict
     * @param drops  true when the pair's observer dropped more than 0.1% of its packets
     */
    public static Verdict verdict(SiteModel model, AuditPair pair, PairAggregate agg, Optional<Window> window,
                                  boolean drops) {
        return verdict(pair, agg, model.threshold(), model.minCrossBytes(), window, drops, model.version());
    }

    /**
     * The verdict of one pair.
     *
     * @param window   the window, empty for the cumulative verdict
     * @param drops    true when the observer dropped more than 0.1% of packets in that window
     * @param version  the rule-set version
     */
    public static Verdict verdict(AuditPair pair, PairAggregate agg, BigDecimal threshold, long minCrossBytes,
                                  Optional<Window> window, boolean drops, String version) {
        long cross = agg.crossBytes();
        long db = agg.bytes(Category.DB);
        Outcome o = outcome(db, cross, threshold, minCrossBytes, drops);
        BigDecimal share = share(db, cross);
        Map<Category, Long> cats = new LinkedHashMap<>();
        for (Category c : Category.all()) {
            if (agg.bytes(c) != 0) {
                cats.put(c, agg.bytes(c));
            }
        }
        Map<String, Long> addrs = new LinkedHashMap<>();
        agg.addressBytes().entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .forEach(e -> addrs.put(e.getKey(), e.getValue()));
        BigDecimal t = threshold.stripTrailingZeros();
        DbConnectionSummary connections = agg.dbConnections().summary(window.orElse(null));
        return new Verdict(pair.server().address(), pair.server().name(), pair.server().site().name(),
                pair.remoteSite().name(), window, o, share, t, cross, cats, addrs, agg.rtt().summary(),
                connections, version, reason(o, agg, share, t, minCrossBytes, drops),
                agg.topFlows().top(TopFlows.REPORTED), agg.dbCalls().summary(window, agg.rtt(), connections),
                agg.estimate(), agg.exporters());
    }

    static String reason(Outcome o, PairAggregate agg, BigDecimal share, BigDecimal threshold, long minCross,
                         boolean drops) {
        long cross = agg.crossBytes();
        if (drops) {
            return "the observer dropped more than 0.1% of packets";
        }
        if (o == Outcome.INSUFFICIENT) {
            return cross + " cross-site bytes, below minCrossBytes " + minCross;
        }
        String s = "DB share " + percent(share) + " of " + cross + " cross-site bytes";
        if (o == Outcome.PASS) {
            return s + " >= threshold " + percent(threshold);
        }
        Category worst = java.util.Arrays.stream(Category.all()).filter(c -> c != Category.DB)
                .max(Comparator.comparingLong(agg::bytes)).orElse(Category.UNKNOWN);
        return s + " < threshold " + percent(threshold) + "; largest other category " + worst + " ("
                + agg.bytes(worst) + " bytes)";
    }

    /** {@code 0.9296} as {@code 92.96%}, {@code 0.9} as {@code 90%}. */
    public static String percent(BigDecimal fraction) {
        return fraction.multiply(HUNDRED).stripTrailingZeros().toPlainString() + "%";
    }
}
