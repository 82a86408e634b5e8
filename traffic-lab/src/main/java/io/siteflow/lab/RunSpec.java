package io.siteflow.lab;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one lab run does: how long the steady traffic runs, the DB share of each region-2 host's cross-site
 * IP bytes, and the seed of the sizes and timings. Immutable.
 *
 * @param duration how long the background traffic runs (1 s to 24 h); the run then tops the DB traffic up
 *                 to the share and closes every connection, which takes about a second more
 * @param shares   DB share per region-2 host address, each strictly between 0 and 1; every region-2 host
 *                 must have one
 * @param seed     seed of every {@link java.util.Random} the run uses
 * @param dbServiceTime how long the lab's database takes for each SQL round trip before it answers (0 to 1 s;
 *                 default 0), so that a DB call costs RTT + this
 */
public record RunSpec(Duration duration, Map<String, Double> shares, long seed, Duration dbServiceTime) {
    public RunSpec {
        if (dbServiceTime.isNegative() || dbServiceTime.compareTo(Duration.ofSeconds(1)) > 0) {
            throw new IllegalArgumentException("DB service time " + dbServiceTime.toMillis() + " ms: 0 to 1 s");
        }
        if (duration.compareTo(Duration.ofSeconds(1)) < 0 || duration.compareTo(Duration.ofHours(24)) > 0) {
            throw new IllegalArgumentException("run duration " + duration.toSeconds() + " s: 1 s to 24 h");
        }
        for (LabHost h : LabHost.REGION2_HOSTS) {
            Double f = shares.get(h.address());
            if (f == null) {
                throw new IllegalArgumentException("no DB share for " + h.name() + " (" + h.address() + ")");
            }
            if (!(f > 0 && f < 1)) {
                throw new IllegalArgumentException("DB share of " + h.name() + " is " + f + ": must be between 0 and 1");
            }
        }
        shares = Map.copyOf(shares);
    }

    /** Every region-2 host at DB share {@code db}; seed 42. */
    public static RunSpec of(Duration duration, double db) {
        Map<String, Double> m = new LinkedHashMap<>();
        LabHost.REGION2_HOSTS.forEach(h -> m.put(h.address(), db));
        return new RunSpec(duration, m, 42, Duration.ZERO);
    }

    /** This spec with host {@code nameOrAddress} at DB share {@code db}. */
    public RunSpec withShare(String nameOrAddress, double db) {
        Map<String, Double> m = new LinkedHashMap<>(shares);
        m.put(LabHost.named(nameOrAddress).address(), db);
        return new RunSpec(duration, m, seed, dbServiceTime);
    }

    /** This spec with another seed. */
    public RunSpec withSeed(long newSeed) {
        return new RunSpec(duration, shares, newSeed, dbServiceTime);
    }

    /** This spec with the database taking {@code d} for each SQL round trip. */
    public RunSpec withDbServiceTime(Duration d) {
        return new RunSpec(duration, shares, seed, d);
    }
}
