package io.siteflow.rules.isolation;

import java.util.Objects;

/**
 * The handshake RTTs one address had with the peers of one site: what the {@code MODEL_SUSPECT} check compares with
 * the site the model puts the address in. Mergeable. Immutable.
 *
 * @param address    the address (either end of the flows)
 * @param peerSite   the site of its peers
 * @param samples    handshakes measured
 * @param minMicros  the smallest handshake RTT, µs
 */
public record HostRtt(String address, String peerSite, long samples, long minMicros) {
    public HostRtt {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(peerSite, "peerSite");
    }

    /** The key of the entry, {@code address|peerSite}. */
    public String key() {
        return address + "|" + peerSite;
    }

    /** Both measurements of the same address and peer site together. */
    public HostRtt plus(HostRtt other) {
        if (!key().equals(other.key())) {
            throw new IllegalArgumentException("entries differ: " + key() + " and " + other.key());
        }
        return new HostRtt(address, peerSite, samples + other.samples, Math.min(minMicros, other.minMicros));
    }
}
