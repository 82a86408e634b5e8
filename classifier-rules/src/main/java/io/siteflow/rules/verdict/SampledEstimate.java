package io.siteflow.rules.verdict;

import io.siteflow.model.FlowRecord;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Optional;

/**
 * A verdict computed from sampled records ({@code sampled}: a flow exporter counted 1 in N packets and the counts
 * were multiplied by N) is an estimate; this is its mark and its bound (capture-agent/docs/collect.md "The bound at
 * 1-in-N sampling"). By the delta method the DB share ŝ = B̂_DB / T̂ has
 * {@code Var(ŝ) ≈ Σ_i (N_i − 1) b_i² (1[i is DB] − s)² / T²} over the packets i of the pair; records carry no
 * packet sizes, so each direction of a sampled record stands for its packets at their mean size
 * ({@code Σ b_i² ≈ bytes² / packets}, the counts as scaled), in units of 1024 bytes² rounded per record
 * ({@link #squares}) so that sums are exact and in any order the same. The bound is 5 σ, rounded up to 4 decimals.
 * Mean sizes make Σ b² smaller than it is where a direction mixes sizes (Cauchy–Schwarz), so the bound is an
 * estimate too: documented, not a guarantee. Immutable.
 *
 * @param sampling the largest sampling rate N among the pair's sampled records
 * @param bound    5 σ of {@code dbShare}: the exact share is within {@code dbShare ± bound} but for bad luck
 */
public record SampledEstimate(int sampling, BigDecimal bound) {
    /** How many standard deviations the bound is. */
    static final int SIGMAS = 5;
    private static final double UNIT = 1024;

    /**
     * The record's contribution to the variance sums: {@code (N − 1) (bytes²/packets + rbytes²/rpackets) / 1024},
     * rounded; 0 for a record that is not sampled.
     */
    static long squares(FlowRecord r) {
        if (r.sampled() == null) {
            return 0;
        }
        double sq = meanSquares(r.bytes(), r.packets()) + meanSquares(r.rbytes(), r.rpackets());
        return Math.round((r.sampled() - 1) * sq / UNIT);
    }

    private static double meanSquares(long bytes, long packets) {
        return packets == 0 ? 0 : (double) bytes * bytes / packets;
    }

    /**
     * The estimate of a pair's DB share, empty when none of its records was sampled.
     *
     * @param sampling     the largest rate among its sampled records, 0 when there were none
     * @param dbSquares    {@link #squares} summed over its DB records
     * @param otherSquares {@link #squares} summed over its other records
     */
    static Optional<SampledEstimate> of(int sampling, long dbSquares, long otherSquares, long db, long cross) {
        if (sampling == 0) {
            return Optional.empty();
        }
        if (cross == 0) {
            return Optional.of(new SampledEstimate(sampling, BigDecimal.ZERO.setScale(4)));
        }
        double s = (double) db / cross;
        double variance = ((1 - s) * (1 - s) * dbSquares + s * s * otherSquares) * UNIT / ((double) cross * cross);
        BigDecimal bound = BigDecimal.valueOf(SIGMAS * Math.sqrt(variance)).setScale(4, RoundingMode.UP);
        return Optional.of(new SampledEstimate(sampling, bound));
    }
}
