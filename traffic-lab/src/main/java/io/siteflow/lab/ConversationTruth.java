package io.siteflow.lab;

import io.siteflow.synth.TrafficCategory;

/**
 * One conversation the lab's counter saw on the router's region-2 interface, oriented client (region 2)
 * → server (region 1). Bytes are IP bytes (IP total length: header + payload), as iftop and the agent
 * count them.
 *
 * @param proto    IANA protocol number (6 TCP, 17 UDP)
 * @param category the category of the server's port ({@link LabService#categoryOf})
 * @param bytes    client → server IP bytes
 * @param packets  client → server packets
 * @param rbytes   server → client IP bytes
 * @param rpackets server → client packets
 */
public record ConversationTruth(int proto, String client, int clientPort, String server, int serverPort,
        TrafficCategory category, long bytes, long packets, long rbytes, long rpackets) {

    /** Both directions' IP bytes. */
    public long totalBytes() {
        return bytes + rbytes;
    }

    /** Both directions' packets. */
    public long totalPackets() {
        return packets + rpackets;
    }
}
