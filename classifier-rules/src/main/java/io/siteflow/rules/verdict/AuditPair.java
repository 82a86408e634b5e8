package io.siteflow.rules.verdict;

import io.siteflow.rules.model.Host;
import io.siteflow.rules.model.Site;
import java.util.Objects;

/**
 * An audited pair: a server and the remote site whose share of its cross-site bytes is measured.
 *
 * @param server     the audited host
 * @param remoteSite the remote site, never the server's own
 */
public record AuditPair(Host server, Site remoteSite) {
    public AuditPair {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(remoteSite, "remoteSite");
    }

    /** The key used on the verdicts topic and in reports: {@code server remoteSite}. */
    public String key() {
        return server.address() + " " + remoteSite.name();
    }
}
