package io.siteflow.model;

/**
 * What one direction of a flow sent in a record's delta. Immutable.
 *
 * @param bytes      IP bytes (outer IP header + payload, from the IP total length)
 * @param packets    packets
 * @param frameBytes link-layer wire bytes (pcap {@code orig_len})
 * @param tcpFlags   OR of the TCP flags this direction sent (0 for other protocols)
 */
public record Counters(long bytes, long packets, long frameBytes, int tcpFlags) {
    /** Nothing sent. */
    public static final Counters NONE = new Counters(0, 0, 0, 0);
}
