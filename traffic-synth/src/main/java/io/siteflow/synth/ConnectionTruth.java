package io.siteflow.synth;

/**
 * Ground truth for one conversation in the capture: its 5-tuple (client = initiator), IP bytes and packets
 * each way, and the handshake RTT at the capture point in microseconds (-1 when the capture holds no
 * handshake: UDP, or a connection opened before the capture).
 */
public record ConnectionTruth(TrafficCategory category, int proto, String client, int clientPort, String server,
        int serverPort, long bytes, long packets, long rbytes, long rpackets, long rttMicros, long firstNanos) {

    /** {@code proto client:port server:port}, for matching flow records whatever their direction. */
    public String key() {
        return proto + " " + client + ":" + clientPort + " " + server + ":" + serverPort;
    }
}
