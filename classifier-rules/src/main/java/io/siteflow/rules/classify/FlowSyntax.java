package io.siteflow.rules.classify;

import io.siteflow.model.Digits;
import io.siteflow.model.IpAddresses;
import io.siteflow.model.L7Protocol;
import io.siteflow.rules.model.Flow;
import io.siteflow.rules.model.Protocols;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Parses the flow syntax of {@code siteflow rules explain}:
 * {@code PROTO SRC[:PORT] -> DST[:PORT] [l7=NAME]}, e.g. {@code tcp 10.2.0.20:40112 -> 10.1.0.10:1521 l7=oracle-tns};
 * IPv6 addresses in brackets when a port follows ({@code [fd00::1]:1521}). Ports are required for TCP and UDP
 * and default to 0 otherwise. Stateless; thread-safe.
 */
public final class FlowSyntax {
    /** The expected form, as messages quote it. */
    public static final String FORM = "PROTO SRC:PORT -> DST:PORT [l7=NAME]";

    private FlowSyntax() {
    }

    /**
     * @throws IllegalArgumentException with a message naming the offending part, e.g.
     *         {@code "70001" is not a port (0-65535)}
     */
    public static Flow parse(String text) {
        String[] t = text.trim().isEmpty() ? new String[0] : text.trim().split("\\s+");
        if (t.length < 4) {
            throw new IllegalArgumentException("expected \"" + FORM + "\", found \"" + text.trim() + "\"");
        }
        int proto = Protocols.parse(t[0]);
        if (proto < 0) {
            throw new IllegalArgumentException("\"" + t[0] + "\" is not a protocol (tcp, udp, icmp, icmpv6 or 0-255)");
        }
        if (!t[2].equals("->")) {
            throw new IllegalArgumentException("expected \"->\" after the source, found \"" + t[2] + "\"");
        }
        boolean ports = proto == Protocols.TCP || proto == Protocols.UDP;
        long[] src = new long[3];
        long[] dst = new long[3];
        endpoint(t[1], ports, src);
        endpoint(t[3], ports, dst);
        L7Protocol l7 = L7Protocol.UNKNOWN;
        for (int i = 4; i < t.length; i++) {
            if (!t[i].startsWith("l7=") || l7 != L7Protocol.UNKNOWN) {
                throw new IllegalArgumentException("unexpected \"" + t[i] + "\" (only l7=NAME may follow the destination)");
            }
            l7 = l7(t[i].substring(3));
        }
        return new Flow(proto, src[0], src[1], (int) src[2], dst[0], dst[1], (int) dst[2], l7);
    }

    private static L7Protocol l7(String name) {
        L7Protocol p = L7Protocol.fromWireName(name);
        if (p == L7Protocol.UNKNOWN) {
            String names = Arrays.stream(L7Protocol.values()).filter(x -> x != L7Protocol.UNKNOWN)
                    .map(L7Protocol::wireName).collect(Collectors.joining(", "));
            throw new IllegalArgumentException("\"" + name + "\" is not an L7 protocol (" + names + ")");
        }
        return p;
    }

    /** Fills {hi, lo, port}. */
    private static void endpoint(String s, boolean needPort, long[] out) {
        String addr;
        String port = null;
        if (s.startsWith("[")) {
            int close = s.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("\"" + s + "\" has no closing \"]\"");
            }
            addr = s.substring(1, close);
            String rest = s.substring(close + 1);
            if (!rest.isEmpty()) {
                if (!rest.startsWith(":")) {
                    throw new IllegalArgumentException("\"" + s + "\": expected \":PORT\" after \"]\"");
                }
                port = rest.substring(1);
            }
        } else if (s.indexOf(':') >= 0 && s.indexOf(':') == s.lastIndexOf(':')) {
            addr = s.substring(0, s.indexOf(':'));
            port = s.substring(s.indexOf(':') + 1);
        } else {
            addr = s;
        }
        long[] a = IpAddresses.parse(addr);
        out[0] = a[0];
        out[1] = a[1];
        if (port == null) {
            if (needPort) {
                throw new IllegalArgumentException("\"" + s + "\" has no port (write ADDRESS:PORT, IPv6 as [ADDRESS]:PORT)");
            }
            return;
        }
        if (port.isEmpty() || port.length() > 5 || !Digits.ascii(port)
                || Integer.parseInt(port) > 65535) {
            throw new IllegalArgumentException("\"" + port + "\" is not a port (0-65535)");
        }
        out[2] = Integer.parseInt(port);
    }
}
