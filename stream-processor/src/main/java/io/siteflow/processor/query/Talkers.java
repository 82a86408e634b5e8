package io.siteflow.processor.query;

import io.siteflow.processor.topology.TalkerKey;
import io.siteflow.processor.topology.TalkerStats;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.KeyValue;

/**
 * Turns talker statistics into {@link TalkerRow}s like iftop: rates over the last 2, 10 and 40 seconds ending at
 * the newest second any row has seen (event time). Port mode gives one row per stored key (service port on the
 * side that offers it, 0 on the ephemeral side); host mode sums the rows of a host pair (rates and totals add
 * up; the peak is the largest peak of its parts, and the category is that of its largest part). Sorted by the
 * 10 s rate (out + in), largest first. Stateless.
 */
final class Talkers {
    private Talkers() {
    }

    static List<TalkerRow> rows(List<KeyValue<String, TalkerStats>> stats, boolean ports, String category, int limit) {
        long now = stats.stream().mapToLong(kv -> kv.value.newestSecond()).max().orElse(0);
        Map<String, List<TalkerRow>> rows = new LinkedHashMap<>();
        for (KeyValue<String, TalkerStats> kv : stats) {
            TalkerKey k = TalkerKey.parse(kv.key);
            if (category != null && !k.category().name().equals(category)) {
                continue;
            }
            TalkerRow r = row(k, kv.value, now, ports);
            String id = ports ? kv.key : k.local() + "|" + k.remote();
            rows.computeIfAbsent(id, x -> new ArrayList<>()).add(r);
        }
        List<TalkerRow> out = new ArrayList<>();
        rows.values().forEach(parts -> out.add(sum(parts)));
        out.sort(Comparator.comparingDouble((TalkerRow r) -> r.out10s() + r.in10s()).reversed()
                .thenComparing(TalkerRow::local).thenComparing(TalkerRow::remote));
        return out.subList(0, Math.min(Math.max(limit, 0), out.size()));
    }

    private static TalkerRow row(TalkerKey k, TalkerStats s, long now, boolean ports) {
        return new TalkerRow(k.local(), ports ? k.localPort() : 0, k.remote(), ports ? k.remotePort() : 0,
                k.category().name(), s.outRate(now, 2), s.outRate(now, 10), s.outRate(now, 40), s.outTotal(),
                s.outPeak(), s.inRate(now, 2), s.inRate(now, 10), s.inRate(now, 40), s.inTotal(), s.inPeak());
    }

    /** The sum of a row's parts, with the category of the largest part. */
    private static TalkerRow sum(List<TalkerRow> parts) {
        TalkerRow largest = parts.stream().max(Comparator.comparingLong(r -> r.outTotal() + r.inTotal())).orElseThrow();
        return parts.stream().reduce((a, b) -> sum(a, b, largest.category())).orElseThrow();
    }

    private static TalkerRow sum(TalkerRow a, TalkerRow b, String category) {
        return new TalkerRow(a.local(), a.localPort(), a.remote(), a.remotePort(), category,
                a.out2s() + b.out2s(), a.out10s() + b.out10s(), a.out40s() + b.out40s(), a.outTotal() + b.outTotal(),
                Math.max(a.outPeak(), b.outPeak()), a.in2s() + b.in2s(), a.in10s() + b.in10s(), a.in40s() + b.in40s(),
                a.inTotal() + b.inTotal(), Math.max(a.inPeak(), b.inPeak()));
    }
}
