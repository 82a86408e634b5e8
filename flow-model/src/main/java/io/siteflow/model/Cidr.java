package io.siteflow.model;

/**
 * An IPv4 or IPv6 network, e.g. {@code 10.1.0.0/16} or {@code fd00:1::/64}, held in the two-long form
 * of {@link IpAddresses} (an IPv4 prefix length p is stored as 96 + p). Host bits given in the text
 * are cleared. Immutable.
 *
 * @param hi       network address, high 64 bits
 * @param lo       network address, low 64 bits
 * @param bits     prefix length over the 128-bit form
 * @param v4       true for an IPv4 network
 */
public record Cidr(long hi, long lo, int bits, boolean v4) {

    /**
     * Parses {@code address/prefix}; a bare address is a host route (/32 or /128).
     *
     * @throws IllegalArgumentException with a message such as
     *         {@code "10.1.0.0/33: prefix length must be 0-32"}
     */
    public static Cidr parse(String text) {
        String s = text.trim();
        int slash = s.indexOf('/');
        String addr = slash < 0 ? s : s.substring(0, slash);
        long[] a;
        try {
            a = IpAddresses.parse(addr);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(s + ": " + e.getMessage());
        }
        boolean v4 = addr.indexOf(':') < 0;
        int max = v4 ? 32 : 128;
        int len = max;
        if (slash >= 0) {
            String p = s.substring(slash + 1);
            if (p.isEmpty() || p.length() > 3 || !Digits.ascii(p)
                    || Integer.parseInt(p) > max) {
                throw new IllegalArgumentException(s + ": prefix length must be 0-" + max);
            }
            len = Integer.parseInt(p);
        }
        int bits = v4 ? 96 + len : len;
        return new Cidr(a[0] & maskHi(bits), a[1] & maskLo(bits), bits, v4);
    }

    /** True when the address (two-long form) lies inside this network. */
    public boolean contains(long addrHi, long addrLo) {
        return (addrHi & maskHi(bits)) == hi && (addrLo & maskLo(bits)) == lo;
    }

    /** Prefix length as written: 0-32 for IPv4, 0-128 for IPv6. */
    public int prefixLength() {
        return v4 ? bits - 96 : bits;
    }

    static long maskHi(int bits) {
        return bits >= 64 ? -1L : bits == 0 ? 0L : -1L << (64 - bits);
    }

    static long maskLo(int bits) {
        return bits <= 64 ? 0L : bits >= 128 ? -1L : -1L << (128 - bits);
    }

    @Override
    public String toString() {
        return IpAddresses.format(hi, lo) + "/" + prefixLength();
    }
}
