package io.siteflow.rules.model;

/**
 * An inclusive range of ports, 1-65535; a single port has {@code low == high}.
 *
 * @param low  first port
 * @param high last port, {@code >= low}
 */
public record PortRange(int low, int high) {
    public PortRange {
        if (low < 1 || high > 65535 || low > high) {
            throw new IllegalArgumentException("bad port range " + low + "-" + high);
        }
    }

    public boolean contains(int port) {
        return port >= low && port <= high;
    }

    @Override
    public String toString() {
        return low == high ? Integer.toString(low) : low + "-" + high;
    }
}
