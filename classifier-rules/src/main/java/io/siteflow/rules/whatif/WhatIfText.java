package io.siteflow.rules.whatif;

import io.siteflow.rules.model.RttLimit;
import java.util.Locale;
import java.util.List;

/** {@code siteflow whatif} as text ({@link WhatIfJson} for JSON). Thread-safe. */
public final class WhatIfText {
    /** The largest flows listed of those that would change side (text and JSON). */
    static final int LISTED = 10;

    private WhatIfText() {
    }

    public static String render(WhatIfReport r) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "what if %s (%s) moved from %s to %s%n", r.server(), r.address(),
                r.fromSite(), r.toSite()));
        sb.append(String.format(Locale.ROOT, "  cross-site bytes: %d now, %d after%n", r.crossBytesBefore(),
                r.crossBytesAfter()));
        flows(sb, "would become local", r.becomeLocal(), r.becomeLocalTotal());
        flows(sb, "would become cross-site", r.becomeRemote(), r.becomeRemoteTotal());
        sb.append(String.format(Locale.ROOT, "  DB calls: %d would stop and %d would start paying %.3f ms of RTT"
                + " (over %d s)%n", r.callsStopPaying(), r.callsStartPaying(), r.rttSavedMicros() / 1000.0,
                r.seconds()));
        sb.append(String.format(Locale.ROOT, "  time per second of work: %.3f ms %s%n",
                Math.abs(r.microsSavedPerSecond()) / 1000.0, r.microsSavedPerSecond() >= 0 ? "saved" : "added"));
        sb.append("links (RTT median; fibre distance at most 100 km per ms of RTT: delays only add time):\n");
        for (WhatIfReport.Link l : r.links()) {
            sb.append(String.format(Locale.ROOT, "  %s <-> %s: %.3f ms, at most %d km%s%n", l.siteA(), l.siteB(),
                    l.rttP50Micros() / 1000.0, l.fibreKmAtMost(),
                    l.aboveLimit() ? "  ABOVE " + limitText(r.limit()) : ""));
        }
        return sb.toString();
    }

    /** {@code the 10 ms support limit}, or the site model's when it is the stricter one. */
    private static String limitText(RttLimit limit) {
        return limit.source() == RttLimit.Source.ORACLE ? "the 10 ms support limit" : limit.text();
    }

    private static void flows(StringBuilder sb, String what, List<WhatIfReport.Flow> flows, WhatIfReport.Total total) {
        sb.append("  ").append(total.flows()).append(" flows ").append(what).append(flows.isEmpty() ? "\n" : ":\n");
        flows.stream().limit(LISTED).forEach(f -> sb.append(String.format(Locale.ROOT, "    %s  %d bytes%n",
                f.text(), f.bytes())));
    }
}
