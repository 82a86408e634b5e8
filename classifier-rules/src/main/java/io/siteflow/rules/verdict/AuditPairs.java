package io.siteflow.rules.verdict;

import io.siteflow.rules.model.AuditSpec;
import io.siteflow.rules.model.Host;
import io.siteflow.rules.model.Role;
import io.siteflow.rules.model.Site;
import io.siteflow.rules.model.SiteModel;
import java.util.ArrayList;
import java.util.List;

/**
 * Which (server, remote site) pairs a model audits (DESIGN.md, "Verdict"): its explicit {@code audit:} pairs
 * when it has any; otherwise every {@code app-server} host in a site that holds no {@code db} host, towards
 * every other site that holds one. Stateless; thread-safe.
 */
public final class AuditPairs {
    private AuditPairs() {
    }

    /** The pairs in model order (hosts, then sites). */
    public static List<AuditPair> of(SiteModel model) {
        List<AuditPair> out = new ArrayList<>();
        if (!model.audit().isEmpty()) {
            for (AuditSpec a : model.audit()) {
                out.add(new AuditPair(a.server(), a.remoteSite()));
            }
            return List.copyOf(out);
        }
        for (Host h : model.hosts()) {
            if (!h.role().equals(Role.APP_SERVER) || hasDb(model, h.site())) {
                continue;
            }
            for (Site s : model.sites()) {
                if (!s.equals(h.site()) && hasDb(model, s)) {
                    out.add(new AuditPair(h, s));
                }
            }
        }
        return List.copyOf(out);
    }

    private static boolean hasDb(SiteModel model, Site site) {
        return model.hosts().stream().anyMatch(h -> h.role().equals(Role.DB) && h.site().equals(site));
    }
}
