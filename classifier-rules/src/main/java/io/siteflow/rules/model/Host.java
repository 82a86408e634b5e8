package io.siteflow.rules.model;

import io.siteflow.model.IpAddresses;
import java.util.Objects;

/**
 * A listed host. Immutable.
 *
 * @param address canonical textual address ({@link IpAddresses#format})
 * @param hi      address, high 64 bits of the two-long form
 * @param lo      address, low 64 bits
 * @param name    display name (the address when the model gives none)
 * @param role    its role
 * @param site    the site whose networks hold the address (longest prefix)
 * @param cluster the WebLogic cluster it belongs to ({@code cluster:}), empty when none
 */
public record Host(String address, long hi, long lo, String name, Role role, Site site, String cluster) {
    public Host {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(site, "site");
        Objects.requireNonNull(cluster, "cluster");
    }

    /** A host of no cluster. */
    public Host(String address, long hi, long lo, String name, Role role, Site site) {
        this(address, hi, lo, name, role, site, "");
    }

    @Override
    public String toString() {
        return name + " (" + address + ", " + role + ", " + site + ")";
    }
}
