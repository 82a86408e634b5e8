package io.siteflow.agent.decode;

import io.siteflow.agent.capture.CaptureException;
import io.siteflow.agent.capture.PacketHandler;
import io.siteflow.agent.app.FileReplay;
import io.siteflow.agent.capture.file.CaptureFileReader;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.agent.flow.FlowSink;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.IpAddresses;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One corpus capture compared with tshark's ipv4/ipv6 conversation rows: our packets and wire bytes per
 * unordered IP pair, and, for pairs where tshark counts more, the frames we decoded as IP that carry that
 * pair again further in (a tunnel's inner header: the only thing we deliberately do not count). A pair
 * where tshark counts more is explained as a tunnel when that many frames (and bytes) do carry an inner
 * header of the pair; tshark may decode fewer tunnels than exist, never more.
 */
final class CorpusFile {
    enum Verdict { EXACT, TUNNEL, UNSUPPORTED_LINK, IPV6_FRAGMENTS, DIFFERENT }

    final Map<String, long[]> ours = new TreeMap<>();
    final Map<String, long[]> truth;
    final Map<String, long[]> inner = new TreeMap<>();
    /** IPv6 fragment frames per pair: tshark counts only the one that completes reassembly. */
    final Map<String, long[]> v6Fragments = new TreeMap<>();
    final TreeSet<Integer> unsupportedLinks = new TreeSet<>();
    String error;

    private CorpusFile(Map<String, long[]> truth) {
        this.truth = truth;
    }

    static CorpusFile compare(Path capture, Path truthFile) throws IOException {
        CorpusFile f = new CorpusFile(readTruth(truthFile));
        PacketDecoder decoder = new PacketDecoder();
        Packet packet = new Packet();
        try {
            recordTotals(capture, f.ours);
            read(capture, (ts, linkType, data, offset, capLen, wireLen) -> {
                DecodeStatus status = decoder.decode(linkType, data, offset, capLen, wireLen, packet);
                if (status == DecodeStatus.IP) {
                    if (packet.ipVersion == 6 && packet.fragment) {
                        add(f.v6Fragments, key(packet), wireLen);
                    }
                } else if (status == DecodeStatus.UNSUPPORTED_LINK) {
                    f.unsupportedLinks.add(linkType & 0xFFFF);
                }
            });
            Map<String, long[]> short_ = new TreeMap<>();
            f.truth.forEach((k, t) -> {
                long[] o = f.ours.get(k);
                if (o == null || o[0] < t[0]) {
                    short_.put(k, t);
                }
            });
            if (!short_.isEmpty()) {
                read(capture, (ts, linkType, data, offset, capLen, wireLen) -> {
                    if (decoder.decode(linkType, data, offset, capLen, wireLen, packet) == DecodeStatus.IP) {
                        String outer = key(packet);
                        for (String k : short_.keySet()) {
                            if (carries(k, k.equals(outer) ? 2 : 1, data, offset, capLen)) {
                                add(f.inner, k, wireLen);
                            }
                        }
                    }
                });
            }
        } catch (RuntimeException e) {
            f.error = "decoder threw " + e;
        }
        return f;
    }

    /**
     * The agent's own totals: the file replayed through reader, decoder and flow table, and the records'
     * packets and wire bytes (both directions) summed per unordered IP pair.
     */
    private static void recordTotals(Path capture, Map<String, long[]> totals) {
        FileReplay.run(capture, "corpus", FlowTableConfig.DEFAULTS, new FlowSink() {
            @Override
            public void accept(FlowRecord r) {
                String v = r.src().indexOf(':') >= 0 ? "ipv6" : "ipv4";
                long[] c = totals.computeIfAbsent(key(v.equals("ipv6") ? 6 : 4, r.src(), r.dst()), k -> new long[2]);
                c[0] += r.totalPackets();
                c[1] += r.frameBytes() + r.rframeBytes();
            }

            @Override
            public void close() {
            }
        });
        totals.values().removeIf(c -> c[0] == 0);
    }

    /** Reads with the project's reader; a damaged or cut-short file ends quietly, as tshark's tables do. */
    private static void read(Path capture, PacketHandler handler) {
        try (CaptureFileReader reader = CaptureFileReader.open(capture)) {
            reader.run(handler);
        } catch (CaptureException e) {
            // what was read before the damage is compared; tshark also stops there
        }
    }

    Verdict verdict() {
        if (error != null) {
            return Verdict.DIFFERENT;
        }
        if (equal(ours, truth)) {
            return Verdict.EXACT;
        }
        if (!v6Fragments.isEmpty() && onlyFragmentsDiffer()) {
            return Verdict.IPV6_FRAGMENTS;
        }
        for (Map.Entry<String, long[]> e : ours.entrySet()) {
            long[] t = truth.get(e.getKey());
            if (t == null || e.getValue()[0] > t[0] || e.getValue()[1] > t[1]) {
                return Verdict.DIFFERENT;
            }
        }
        boolean exact = ours.size() == truth.size() && ours.entrySet().stream()
                .allMatch(e -> same(e.getValue(), truth.get(e.getKey())));
        if (exact) {
            return Verdict.EXACT;
        }
        boolean tunnels = truth.entrySet().stream().allMatch(e -> {
            long[] o = ours.getOrDefault(e.getKey(), new long[2]);
            long[] i = inner.getOrDefault(e.getKey(), new long[2]);
            long[] t = e.getValue();
            return same(o, t) || t[0] - o[0] <= i[0] && t[1] - o[1] <= i[1];
        });
        if (tunnels) {
            return Verdict.TUNNEL;
        }
        boolean oursExact = ours.entrySet().stream().allMatch(e -> same(e.getValue(), truth.get(e.getKey())));
        return oursExact && !unsupportedLinks.isEmpty() ? Verdict.UNSUPPORTED_LINK : Verdict.DIFFERENT;
    }

    /** Every pair where we count more differs by at most its IPv6 fragment frames and bytes. */
    private boolean onlyFragmentsDiffer() {
        return ours.keySet().containsAll(truth.keySet()) && ours.entrySet().stream().allMatch(e -> {
            long[] o = e.getValue();
            long[] t = truth.getOrDefault(e.getKey(), new long[2]);
            long[] fr = v6Fragments.getOrDefault(e.getKey(), new long[2]);
            return o[0] >= t[0] && o[1] >= t[1] && o[0] - t[0] <= fr[0] && o[1] - t[1] <= fr[1];
        });
    }

    String describe() {
        StringBuilder sb = new StringBuilder(error == null ? "" : error);
        if (!unsupportedLinks.isEmpty()) {
            sb.append(" unsupported link types ").append(unsupportedLinks);
        }
        truth.forEach((k, t) -> {
            long[] o = ours.get(k);
            if (!same(o, t)) {
                long[] i = inner.get(k);
                sb.append(String.format("%n    %s ours %s tshark %d/%d inner %s", k,
                        o == null ? "none" : o[0] + "/" + o[1],
                        t[0], t[1], i == null ? "none" : i[0] + "/" + i[1]));
            }
        });
        ours.forEach((k, o) -> {
            if (!truth.containsKey(k)) {
                sb.append(String.format("%n    %s ours %d/%d tshark none", k, o[0], o[1]));
            }
        });
        return sb.toString();
    }

    private static void add(Map<String, long[]> map, String key, int wireLen) {
        long[] counts = map.computeIfAbsent(key, k -> new long[2]);
        counts[0]++;
        counts[1] += wireLen;
    }

    private static boolean equal(Map<String, long[]> a, Map<String, long[]> b) {
        return a.size() == b.size() && a.entrySet().stream().allMatch(e -> same(e.getValue(), b.get(e.getKey())));
    }

    private static boolean same(long[] a, long[] b) {
        return a != null && b != null && a[0] == b[0] && a[1] == b[1];
    }

    private static String key(Packet p) {
        return key(p.ipVersion, IpAddresses.format(p.srcHi, p.srcLo), IpAddresses.format(p.dstHi, p.dstLo));
    }

    private static String key(int version, String a, String b) {
        return "ipv" + version + " " + (a.compareTo(b) <= 0 ? a + " " + b : b + " " + a);
    }

    /**
     * True when the frame holds at least {@code times} IP headers of pair {@code key}: the two addresses
     * side by side, in either order, behind a version nibble at the header's start.
     */
    private static boolean carries(String key, int times, byte[] data, int offset, int capLen) {
        String[] f = key.split(" ");
        byte[] a = bytes(f[0], f[1]);
        byte[] b = bytes(f[0], f[2]);
        if (a == null || b == null) {
            return false;
        }
        int version = a.length == 4 ? 4 : 6;
        int toStart = a.length == 4 ? 12 : 8;
        int end = Math.min(offset + capLen, data.length) - 2 * a.length;
        int found = 0;
        for (int i = offset + toStart; i <= end; i++) {
            boolean ab = at(a, data, i) && at(b, data, i + a.length);
            boolean ba = at(b, data, i) && at(a, data, i + a.length);
            if ((ab || ba) && (data[i - toStart] & 0xFF) >> 4 == version) {
                found++;
            }
        }
        return found >= times;
    }

    private static boolean at(byte[] needle, byte[] data, int i) {
        for (int j = 0; j < needle.length; j++) {
            if (data[i + j] != needle[j]) {
                return false;
            }
        }
        return true;
    }

    private static byte[] bytes(String kind, String address) {
        try {
            long[] v = IpAddresses.parse(address);
            int n = kind.equals("ipv4") ? 4 : 16;
            byte[] out = new byte[n];
            for (int i = 0; i < n; i++) {
                long word = n == 4 ? v[1] : (i < 8 ? v[0] : v[1]);
                out[i] = (byte) (word >>> (8 * (n == 4 ? 3 - i : 7 - i % 8)));
            }
            return out;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static Map<String, long[]> readTruth(Path file) throws IOException {
        Map<String, long[]> rows = new TreeMap<>();
        for (String line : Files.readAllLines(file)) {
            String[] f = line.split("\t", -1);
            if (f.length < 12 || !(f[0].equals("ipv4") || f[0].equals("ipv6"))) {
                continue;
            }
            long[] counts = rows.computeIfAbsent(key(f[0].equals("ipv4") ? 4 : 6, normalise(f[1]), normalise(f[3])),
                    k -> new long[2]);
            counts[0] += Long.parseLong(f[10]);
            counts[1] += Long.parseLong(f[11]);
        }
        return rows;
    }

    private static String normalise(String address) {
        try {
            long[] v = IpAddresses.parse(address);
            return IpAddresses.format(v[0], v[1]);
        } catch (IllegalArgumentException e) {
            return address;
        }
    }
}
