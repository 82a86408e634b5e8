package io.siteflow.synth;

import java.net.InetAddress;

/** One host of a synthetic cluster: name, IPv4 address (text), region and role. Immutable. */
public record ClusterHost(String name, String address, String region, Role role) {
    /** What the host does. */
    public enum Role { DB, APP_SERVER, ADMIN, DNS }

    /** The address as an {@link InetAddress} (a literal, never looked up). */
    public InetAddress inet() {
        return Endpoint.literal(address);
    }

    /** An endpoint of this host on {@code port}. */
    public Endpoint at(int port) {
        return new Endpoint(inet(), port);
    }
}
