package io.siteflow.synth;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/**
 * One end of a conversation: an IPv4 or IPv6 address and a port (0 for protocols without ports).
 *
 * @throws IllegalArgumentException when the port is outside 0-65535 or the address is null
 */
public record Endpoint(InetAddress address, int port) {
    private static final Pattern V4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    public Endpoint {
        if (address == null) {
            throw new IllegalArgumentException("address is null");
        }
        if (port < 0 || port > 0xFFFF) {
            throw new IllegalArgumentException("port " + port + " is not in 0-65535");
        }
    }

    /** Parses a literal address (never a name lookup): {@code Endpoint.of("10.1.0.10", 1521)}. */
    public static Endpoint of(String literal, int port) {
        return new Endpoint(literal(literal), port);
    }

    /** A literal IPv4 or IPv6 address; no DNS lookup is made. */
    public static InetAddress literal(String literal) {
        if (!V4.matcher(literal).matches() && !literal.contains(":")) {
            throw new IllegalArgumentException(literal + ": not a literal IP address");
        }
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(literal + ": not a literal IP address", e);
        }
    }

    public boolean isV4() {
        return address instanceof Inet4Address;
    }

    /** The address as {@code a.b.c.d} or the JDK's IPv6 text. */
    public String host() {
        return address.getHostAddress();
    }

    @Override
    public String toString() {
        return isV4() ? host() + ":" + port : "[" + host() + "]:" + port;
    }
}
