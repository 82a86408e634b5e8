package io.siteflow.rules.model;

import io.siteflow.model.Digits;
import java.util.Locale;

/** Names of IP protocol numbers as rules and the explain syntax write them. Static helpers; thread-safe. */
public final class Protocols {
    public static final int ICMP = 1;
    public static final int TCP = 6;
    public static final int UDP = 17;
    public static final int ICMPV6 = 58;

    private Protocols() {
    }

    /** {@code tcp}, {@code udp}, {@code icmp}, {@code icmpv6}, else the number as text. */
    public static String name(int proto) {
        return switch (proto) {
            case TCP -> "tcp";
            case UDP -> "udp";
            case ICMP -> "icmp";
            case ICMPV6 -> "icmpv6";
            default -> Integer.toString(proto);
        };
    }

    /**
     * The number of a protocol name or decimal number 0-255.
     *
     * @return the number, or -1 when the text is neither
     */
    public static int parse(String text) {
        switch (text.toLowerCase(Locale.ROOT)) {
            case "tcp": return TCP;
            case "udp": return UDP;
            case "icmp": return ICMP;
            case "icmpv6": return ICMPV6;
            default: break;
        }
        if (text.isEmpty() || text.length() > 3 || !Digits.ascii(text)) {
            return -1;
        }
        int n = Integer.parseInt(text);
        return n <= 255 ? n : -1;
    }
}
