package io.siteflow.agent.capture.live;

import io.siteflow.model.Cidr;
import io.siteflow.model.IpAddresses;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Builds the kernel (BPF) filter of a live capture from the remote-site CIDRs.
 *
 * <p>For CIDRs A and B the filter is
 * <pre>{@code ((ip or ip6) and (net A or net B)) or (vlan and (ip or ip6) and (net A or net B))}</pre>
 * It keeps IPv4 and IPv6 packets with <em>either</em> address (source or destination) inside any of the
 * CIDRs, untagged or with one 802.1Q tag. On Linux, received frames have their outer tag moved out of the
 * packet data before any filter runs, so the first clause matches them (libpcap puts the tag back into the
 * captured bytes); the second clause matches frames whose tag is still in the data, such as frames sent
 * by this host through a NIC without VLAN transmit offload. It drops ARP (which {@code net} alone would
 * keep), traffic between two addresses outside the CIDRs, and everything that is not IP.
 *
 * <p>This is a superset of what {@code iftop -F} counts (exactly one end inside the CIDRs): traffic with both
 * ends inside passes the kernel filter and is dropped later, in Java. QinQ frames (an inner tag left in
 * the data after the outer one was taken out) are not kept. Stateless; thread-safe.
 */
public final class BpfFilters {
    private BpfFilters() {
    }

    /**
     * The filter for the given CIDRs, in the given order; an empty list gives the empty expression
     * (capture everything, as {@code iftop} without {@code -F}).
     *
     * @throws NullPointerException when the list or one of its elements is null
     */
    public static String forRemoteCidrs(List<Cidr> cidrs) {
        if (cidrs.isEmpty()) {
            return "";
        }
        String nets = cidrs.stream().map(c -> "net " + bpfText(c)).collect(Collectors.joining(" or "));
        String ipInNets = "(ip or ip6) and (" + nets + ")";
        return "(" + ipInNets + ") or (vlan and " + ipInNets + ")";
    }

    /** A CIDR as libpcap reads it: dotted quad for IPv4, IPv6 text otherwise (IPv4-mapped kept as IPv6). */
    static String bpfText(Cidr c) {
        String address = IpAddresses.format(c.hi(), c.lo());
        if (!c.v4() && IpAddresses.isV4(c.hi(), c.lo())) {
            address = "::ffff:" + address;
        }
        return address + "/" + c.prefixLength();
    }
}
