package io.siteflow.rules.classify;

import io.siteflow.model.Cidr;
import io.siteflow.model.IpAddresses;
import java.util.List;
import java.util.TreeMap;

/**
 * Longest-prefix match from networks to int ids: one hash map per prefix length present, tried from the
 * longest length down, with IPv4 and IPv6 networks kept apart. A lookup costs one hash probe per distinct
 * prefix length of the address family. Read-only after construction; thread-safe.
 */
final class PrefixTable {
    private final int[] v4Bits;
    private final LongPairIntMap[] v4Maps;
    private final int[] v6Bits;
    private final LongPairIntMap[] v6Maps;

    /** {@code ids.get(i)} is the id of {@code cidrs.get(i)}; for equal networks the later id wins. */
    PrefixTable(List<Cidr> cidrs, List<Integer> ids) {
        TreeMap<Integer, LongPairIntMap> v4 = new TreeMap<>((a, b) -> b - a);
        TreeMap<Integer, LongPairIntMap> v6 = new TreeMap<>((a, b) -> b - a);
        for (int i = 0; i < cidrs.size(); i++) {
            Cidr c = cidrs.get(i);
            int count = (int) cidrs.stream().filter(x -> x.bits() == c.bits() && x.v4() == c.v4()).count();
            (c.v4() ? v4 : v6).computeIfAbsent(c.bits(), b -> new LongPairIntMap(count)).put(c.hi(), c.lo(), ids.get(i));
        }
        v4Bits = v4.keySet().stream().mapToInt(Integer::intValue).toArray();
        v4Maps = v4.values().toArray(new LongPairIntMap[0]);
        v6Bits = v6.keySet().stream().mapToInt(Integer::intValue).toArray();
        v6Maps = v6.values().toArray(new LongPairIntMap[0]);
    }

    /** The id of the longest network holding the address, or -1. */
    int lookup(long hi, long lo) {
        if (IpAddresses.isV4(hi, lo)) {
            return scan(v4Bits, v4Maps, hi, lo);
        }
        return scan(v6Bits, v6Maps, hi, lo);
    }

    private static int scan(int[] bits, LongPairIntMap[] maps, long hi, long lo) {
        for (int i = 0; i < bits.length; i++) {
            int b = bits[i];
            int id = maps[i].get(hi & maskHi(b), lo & maskLo(b));
            if (id >= 0) {
                return id;
            }
        }
        return -1;
    }

    private static long maskHi(int bits) {
        return bits >= 64 ? -1L : bits == 0 ? 0L : -1L << (64 - bits);
    }

    private static long maskLo(int bits) {
        return bits <= 64 ? 0L : bits >= 128 ? -1L : -1L << (128 - bits);
    }
}
