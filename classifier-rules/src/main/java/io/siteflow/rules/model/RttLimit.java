package io.siteflow.rules.model;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Objects;
import java.util.Optional;

/**
 * The round-trip time above which a site pair is flagged: the stricter of Oracle's 10 ms support limit for a
 * stretched cluster and the site model's {@code rttLimitMs} when it sets one. The one place that decides it: the
 * audit's site pairs, the what-if's links, {@code /api/links} and the processor's RTT alert all compare with
 * {@link SiteModel#rttLimit()}. Immutable.
 *
 * @param micros the limit, µs of RTT (1..10 000)
 * @param source which limit it is: Oracle's, or the site model's when that is the stricter one
 * @param siteModelSetsOne true when the site model sets {@code rttLimitMs} (even one looser than Oracle's): the
 *               JSON forms then name the {@code limitSource}; without it they stay as they were before the key
 */
public record RttLimit(long micros, Source source, boolean siteModelSetsOne) {
    /** Oracle does not support a stretched FMW cluster above this round-trip time, µs. */
    public static final long ORACLE_MICROS = 10_000L;
    /** Oracle's limit alone: a site model without {@code rttLimitMs}, or one that sets it to 10 ms or more. */
    public static final RttLimit ORACLE = new RttLimit(ORACLE_MICROS, Source.ORACLE, false);

    /** Where a limit comes from; {@link #json()} is its name in JSON ({@code limitSource}). */
    public enum Source {
        ORACLE("oracle"), SITE_MODEL("site-model");

        private final String json;

        Source(String json) {
            this.json = json;
        }

        public String json() {
            return json;
        }
    }

    public RttLimit {
        Objects.requireNonNull(source, "source");
    }

    /**
     * The effective limit of a site model's {@code rttLimitMs} (milliseconds, at most 3 decimal places: a whole
     * number of µs): min(Oracle's 10 ms, it); Oracle's when empty, and Oracle's as well when equal.
     *
     * @throws ArithmeticException when {@code rttLimitMs} has more than 3 decimal places (the loader rejects it)
     */
    public static RttLimit of(Optional<BigDecimal> rttLimitMs) {
        return rttLimitMs.map(ms -> ms.movePointRight(3).setScale(0, RoundingMode.UNNECESSARY).longValueExact())
                .map(us -> us < ORACLE_MICROS ? new RttLimit(us, Source.SITE_MODEL, true)
                        : new RttLimit(ORACLE_MICROS, Source.ORACLE, true)).orElse(ORACLE);
    }

    /** True when {@code rttMicros} is above the limit (equal is within). */
    public boolean exceededBy(long rttMicros) {
        return rttMicros > micros;
    }

    /** {@code Oracle's 10 ms support limit} or {@code the site model's 8 ms limit} (ms without trailing zeros). */
    public String text() {
        String ms = BigDecimal.valueOf(micros, 3).stripTrailingZeros().toPlainString();
        return source == Source.ORACLE ? "Oracle's " + ms + " ms support limit"
                : "the site model's " + ms + " ms limit";
    }
}
