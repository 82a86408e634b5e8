package io.siteflow.rules.isolation;

import io.siteflow.model.IpAddresses;
import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.model.Site;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code MODEL_SUSPECT} check (docs/RULES.md, "Isolation policy", "MODEL_SUSPECT"): physics checks the site
 * model. Over the {@link HostRtt} entries of a period with at least {@link #MIN_SAMPLES} handshakes:
 * <ul>
 *   <li>the <em>reference</em> of two sites A and B is the largest of the minimum RTTs of the entries between them
 *       (addresses of A with peers in B, and of B with peers in A). Not their median: an entry's minimum is taken
 *       over all of the address's peers in the other site, so one misplaced host lowers the entry of every address
 *       it talks to, and with a few misplaced hosts most entries are low; a misplaced host can only lower a
 *       cross-site minimum (a host really further away shows up as a same-site suspect of its own);</li>
 *   <li>an address of site A whose minimum RTT to peers of its own site is at least half the smallest reference of
 *       A with another site, and at least 1 ms, is suspect (a "same-site" peer at the inter-site RTT);</li>
 *   <li>an address of site A whose minimum RTT to peers of site B is under a quarter of the A–B reference, and
 *       under 1 ms, is suspect (a "remote" peer at sub-millisecond RTT).</li>
 * </ul>
 * Addresses outside every site, and sites with no reference, are not judged. Thread-safe (stateless).
 */
public final class ModelSuspects {
    /** Handshakes an entry needs to be judged or to count for a reference. */
    public static final long MIN_SAMPLES = 3;
    /** The floor of a same-site suspect and the ceiling of a cross-site one, µs. */
    public static final long ONE_MS = 1000;

    private ModelSuspects() {
    }

    /**
     * The suspects among a period's RTT entries, by address then peer site.
     *
     * @param classifier the model's classifier (the site of each address)
     * @param rtts       entries per address and peer site (one per key; see {@link HostRtt#plus})
     */
    public static List<ModelSuspect> of(Classifier classifier, List<HostRtt> rtts) {
        List<Entry> entries = new ArrayList<>(rtts.size());
        for (HostRtt r : rtts) {
            if (r.samples() < MIN_SAMPLES) {
                continue;
            }
            Site site = siteOf(classifier, r.address());
            if (site.isKnown()) {
                entries.add(new Entry(r, site.name()));
            }
        }
        Map<String, Long> references = references(entries);
        List<ModelSuspect> out = new ArrayList<>(0);
        for (Entry e : entries) {
            if (e.site.equals(e.rtt.peerSite())) {
                sameSite(e, references).ifPresent(out::add);
            } else {
                crossSite(e, references).ifPresent(out::add);
            }
        }
        out.sort(Comparator.comparing(ModelSuspect::address).thenComparing(ModelSuspect::peerSite));
        return out;
    }

    private record Entry(HostRtt rtt, String site) {
    }

    private static java.util.Optional<ModelSuspect> sameSite(Entry e, Map<String, Long> references) {
        String nearest = null;
        long reference = Long.MAX_VALUE;
        for (Map.Entry<String, Long> r : references.entrySet()) {
            String[] sites = r.getKey().split("\\|", 2);
            String other = sites[0].equals(e.site) ? sites[1] : sites[1].equals(e.site) ? sites[0] : null;
            if (other != null && r.getValue() < reference) {
                reference = r.getValue();
                nearest = other;
            }
        }
        long min = e.rtt.minMicros();
        if (nearest == null || 2 * min < reference || min < ONE_MS) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new ModelSuspect(e.rtt.address(), e.site, e.site, min, reference,
                e.rtt.address() + " (" + e.site + "): handshake RTT to " + e.site + " peers at least " + ms(min)
                        + " over " + e.rtt.samples() + " handshakes, at least half the " + e.site + "-" + nearest
                        + " reference " + ms(reference) + ": the model may put it in the wrong site"));
    }

    private static java.util.Optional<ModelSuspect> crossSite(Entry e, Map<String, Long> references) {
        Long reference = references.get(pairKey(e.site, e.rtt.peerSite()));
        long min = e.rtt.minMicros();
        if (reference == null || 4 * min >= reference || min >= ONE_MS) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new ModelSuspect(e.rtt.address(), e.site, e.rtt.peerSite(), min, reference,
                e.rtt.address() + " (" + e.site + "): handshake RTT to " + e.rtt.peerSite() + " peers " + ms(min)
                        + " over " + e.rtt.samples() + " handshakes, under a quarter of the " + e.site + "-"
                        + e.rtt.peerSite() + " reference " + ms(reference)
                        + ": the model may put it or its peers in the wrong site"));
    }

    /** The largest minimum RTT per site pair ({@code a|b}, names sorted). */
    private static Map<String, Long> references(List<Entry> entries) {
        Map<String, Long> out = new TreeMap<>();
        for (Entry e : entries) {
            if (!e.site.equals(e.rtt.peerSite())) {
                out.merge(pairKey(e.site, e.rtt.peerSite()), e.rtt.minMicros(), Math::max);
            }
        }
        return out;
    }

    private static String pairKey(String a, String b) {
        return a.compareTo(b) <= 0 ? a + "|" + b : b + "|" + a;
    }

    private static Site siteOf(Classifier classifier, String address) {
        try {
            long[] a = IpAddresses.parse(address);
            return classifier.siteOf(a[0], a[1]);
        } catch (IllegalArgumentException notAnAddress) {
            return Site.UNKNOWN;
        }
    }

    /** Microseconds as milliseconds with three decimals ({@code 6.500 ms}). */
    static String ms(long micros) {
        return String.format(Locale.ROOT, "%d.%03d ms", micros / 1000, micros % 1000);
    }
}
