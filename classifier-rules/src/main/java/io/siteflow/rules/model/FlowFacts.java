package io.siteflow.rules.model;

import java.util.Objects;

/**
 * A flow together with what the site model says about its responder: the facts a {@link Match} is
 * evaluated on. Immutable.
 *
 * @param flow    the flow
 * @param dstRole role of the responder host, {@link Role#NONE} when it is no listed host
 * @param dstSite site of the responder address, {@link Site#UNKNOWN} when outside every site
 */
public record FlowFacts(Flow flow, Role dstRole, Site dstSite) {
    public FlowFacts {
        Objects.requireNonNull(flow, "flow");
        Objects.requireNonNull(dstRole, "dstRole");
        Objects.requireNonNull(dstSite, "dstSite");
    }
}
