package io.siteflow.rules.isolation;

import java.util.Objects;

/**
 * An address whose handshake RTTs contradict the site the model puts it in ({@code MODEL_SUSPECT}, docs/RULES.md,
 * "Isolation policy", "MODEL_SUSPECT"): a same-site peer at the inter-site RTT, or a remote one at sub-millisecond
 * RTT. Found by {@link ModelSuspects}. Immutable.
 *
 * @param address         the address
 * @param site            the site the model puts it in
 * @param peerSite        the site of the peers it was measured with
 * @param minRttMicros    its smallest handshake RTT with those peers, µs
 * @param referenceMicros the inter-site reference it was compared with, µs
 * @param message         the evidence in one sentence
 */
public record ModelSuspect(String address, String site, String peerSite, long minRttMicros, long referenceMicros,
                           String message) {
    public ModelSuspect {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(site, "site");
        Objects.requireNonNull(peerSite, "peerSite");
        Objects.requireNonNull(message, "message");
    }
}
