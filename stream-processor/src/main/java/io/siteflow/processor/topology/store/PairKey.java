package io.siteflow.processor.topology.store;

import io.siteflow.rules.verdict.AuditPair;
import java.util.Objects;

/**
 * An audited pair as the topology keys it: in the aggregate stores, the verdict stores and on
 * {@code siteflow.verdicts}, whose key is the text {@code server|remoteSite} ({@link #encoded()}). This class
 * owns that text form, written and read here only. A server address never holds {@code |}. Immutable.
 */
public final class PairKey {
    private final String server;
    private final String remoteSite;
    private final String encoded;

    /**
     * @param server     the audited server's address, canonical text
     * @param remoteSite the remote site's name
     * @throws IllegalArgumentException when the server address holds {@code |}
     */
    public PairKey(String server, String remoteSite) {
        if (server.indexOf('|') >= 0) {
            throw new IllegalArgumentException("server address with '|': " + server);
        }
        this.server = server;
        this.remoteSite = Objects.requireNonNull(remoteSite, "remoteSite");
        this.encoded = server + "|" + remoteSite;
    }

    /** The key of an audited pair. */
    public static PairKey of(AuditPair p) {
        return new PairKey(p.server().address(), p.remoteSite().name());
    }

    /**
     * Reads {@link #encoded()} text.
     *
     * @throws IllegalArgumentException when the text holds no {@code |}
     */
    public static PairKey decode(String text) {
        int bar = text.indexOf('|');
        if (bar < 0) {
            throw new IllegalArgumentException("not a pair key (server|remoteSite): " + text);
        }
        return new PairKey(text.substring(0, bar), text.substring(bar + 1));
    }

    public String server() {
        return server;
    }

    public String remoteSite() {
        return remoteSite;
    }

    /** {@code server|remoteSite}, built once. */
    public String encoded() {
        return encoded;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PairKey k && k.encoded.equals(encoded);
    }

    @Override
    public int hashCode() {
        return encoded.hashCode();
    }

    @Override
    public String toString() {
        return encoded;
    }
}
