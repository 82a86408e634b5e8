package io.siteflow.model;

/**
 * IP addresses as two longs, the form the hot paths use: an IPv6 address is its 128 bits
 * ({@code hi} = first 8 bytes, big-endian), an IPv4 address is IPv4-mapped
 * ({@code ::ffff:a.b.c.d}: {@code hi = 0}, {@code lo = 0x0000ffff_00000000L | ipv4}).
 * Static helpers only; thread-safe.
 */
public final class IpAddresses {
    /** The {@code lo} bits that mark an IPv4-mapped address. */
    public static final long V4_MAPPED = 0x0000_FFFF_0000_0000L;

    private IpAddresses() {
    }

    /** The {@code lo} half of an IPv4 address given as an unsigned 32-bit int. */
    public static long v4Lo(int ipv4) {
        return V4_MAPPED | (ipv4 & 0xFFFF_FFFFL);
    }

    /** True when the address is IPv4-mapped. */
    public static boolean isV4(long hi, long lo) {
        return hi == 0 && (lo & 0xFFFF_FFFF_0000_0000L) == V4_MAPPED;
    }

    /** Dotted quad for IPv4-mapped addresses, RFC 5952 compressed form for IPv6. */
    public static String format(long hi, long lo) {
        if (isV4(hi, lo)) {
            return ((lo >>> 24) & 0xFF) + "." + ((lo >>> 16) & 0xFF) + "." + ((lo >>> 8) & 0xFF) + "." + (lo & 0xFF);
        }
        int[] g = new int[8];
        for (int i = 0; i < 4; i++) {
            g[i] = (int) ((hi >>> (48 - 16 * i)) & 0xFFFF);
            g[4 + i] = (int) ((lo >>> (48 - 16 * i)) & 0xFFFF);
        }
        int bestStart = -1;
        int bestLen = 1;
        for (int i = 0; i < 8; ) {
            if (g[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && g[j] == 0) {
                j++;
            }
            if (j - i > bestLen) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j;
        }
        StringBuilder sb = new StringBuilder(39);
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                sb.append("::");
                i += bestLen - 1;
                continue;
            }
            if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') {
                sb.append(':');
            }
            sb.append(Integer.toHexString(g[i]));
        }
        return sb.toString();
    }

    /**
     * Parses a textual IPv4 or IPv6 address (no host names, no zone ids).
     *
     * @return {@code {hi, lo}}
     * @throws IllegalArgumentException with a message saying what is wrong
     */
    public static long[] parse(String text) {
        String s = text.trim();
        if (s.indexOf(':') >= 0) {
            return parseV6(s);
        }
        return new long[] {0, v4Lo(parseV4(s))};
    }

    /** Dotted quad to int, without allocating (it runs several times per record in the stream processor). */
    static int parseV4(String s) {
        int dots = 0;
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == '.') {
                dots++;
            }
        }
        if (dots != 3) {
            throw new IllegalArgumentException("\"" + s + "\" is not an IPv4 address");
        }
        int v = 0;
        int octet = 0;
        int digits = 0;
        for (int i = 0; i <= s.length(); i++) {
            char c = i < s.length() ? s.charAt(i) : '.';
            if (c >= '0' && c <= '9' && digits < 3) {
                octet = octet * 10 + (c - '0');
                digits++;
            } else if (c == '.' && digits > 0) {
                if (octet > 255) {
                    throw new IllegalArgumentException("\"" + s + "\" is not an IPv4 address: " + octet
                            + " is above 255");
                }
                v = (v << 8) | octet;
                octet = 0;
                digits = 0;
            } else {
                throw new IllegalArgumentException("\"" + s + "\" is not an IPv4 address");
            }
        }
        return v;
    }

    private static long[] parseV6(String s) {
        String bad = "\"" + s + "\" is not an IPv6 address";
        int dbl = s.indexOf("::");
        if (dbl >= 0 && s.indexOf("::", dbl + 1) >= 0) {
            throw new IllegalArgumentException(bad);
        }
        String head = dbl >= 0 ? s.substring(0, dbl) : s;
        String tail = dbl >= 0 ? s.substring(dbl + 2) : "";
        int[] h = groups(head, bad, dbl < 0 || !tail.isEmpty() || true);
        int[] t = dbl >= 0 ? groups(tail, bad, true) : new int[0];
        int[] g = new int[8];
        if (dbl < 0) {
            if (h.length != 8) {
                throw new IllegalArgumentException(bad);
            }
            g = h;
        } else {
            if (h.length + t.length > 7) {
                throw new IllegalArgumentException(bad);
            }
            System.arraycopy(h, 0, g, 0, h.length);
            System.arraycopy(t, 0, g, 8 - t.length, t.length);
        }
        long hi = 0;
        long lo = 0;
        for (int i = 0; i < 4; i++) {
            hi = (hi << 16) | g[i];
            lo = (lo << 16) | g[4 + i];
        }
        return new long[] {hi, lo};
    }

    /** Groups of one side of "::"; an embedded IPv4 tail counts as two groups. */
    private static int[] groups(String part, String bad, boolean allowV4Tail) {
        if (part.isEmpty()) {
            return new int[0];
        }
        String[] items = part.split(":", -1);
        int n = items.length;
        boolean v4Tail = allowV4Tail && items[n - 1].indexOf('.') >= 0;
        int[] out = new int[v4Tail ? n + 1 : n];
        for (int i = 0; i < n; i++) {
            String it = items[i];
            if (v4Tail && i == n - 1) {
                int v4 = parseV4(it);
                out[i] = (v4 >>> 16) & 0xFFFF;
                out[i + 1] = v4 & 0xFFFF;
                break;
            }
            if (it.isEmpty() || it.length() > 4) {
                throw new IllegalArgumentException(bad);
            }
            try {
                out[i] = Integer.parseInt(it, 16);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(bad);
            }
        }
        return out;
    }
}
