package io.siteflow.rules.model;

import java.util.Objects;

/**
 * An explicit {@code audit:} entry of the site model: audit {@code server} towards {@code remoteSite}.
 *
 * @param server     the audited host
 * @param remoteSite the site whose share of the server's cross-site traffic is measured
 */
public record AuditSpec(Host server, Site remoteSite) {
    public AuditSpec {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(remoteSite, "remoteSite");
    }
}
