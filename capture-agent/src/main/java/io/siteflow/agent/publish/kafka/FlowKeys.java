package io.siteflow.agent.publish.kafka;

import io.siteflow.model.Cidr;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.IpAddresses;
import java.util.List;
import java.util.function.Function;

/**
 * Key functions for {@code siteflow.flows} (DESIGN.md, "Kafka topics"): all records of one local
 * server land in one partition. Stateless, thread-safe.
 */
public final class FlowKeys {
    private FlowKeys() {
    }

    /**
     * The key of an agent's records: {@link #localServer} for a live capture or with CIDRs; the agent id for a
     * capture file read without CIDRs. Such a file's records then stay in one partition, in the order the agent
     * exported them, and so do each server's records on their way to its audit: keyed by initiator, one server's
     * records (as initiator and as responder) would come from several partitions, read at different speeds, and
     * a replay at file speed would bring them far out of time order, closing windows before their records arrive.
     */
    public static Function<FlowRecord, String> forCapture(List<Cidr> remoteCidrs, boolean file, String agent) {
        if (file && remoteCidrs.isEmpty()) {
            return r -> agent;
        }
        return localServer(remoteCidrs);
    }

    /**
     * The end outside the remote-site CIDRs (the local server); the initiator when no CIDR is given
     * or when neither or both ends are inside.
     */
    public static Function<FlowRecord, String> localServer(List<Cidr> remoteCidrs) {
        List<Cidr> remote = List.copyOf(remoteCidrs);
        if (remote.isEmpty()) {
            return FlowRecord::src;
        }
        return r -> {
            boolean srcRemote = inside(remote, r.src());
            return srcRemote && !inside(remote, r.dst()) ? r.dst() : r.src();
        };
    }

    private static boolean inside(List<Cidr> cidrs, String address) {
        long[] a;
        try {
            a = IpAddresses.parse(address);
        } catch (IllegalArgumentException e) {
            return false;
        }
        for (Cidr c : cidrs) {
            if (c.contains(a[0], a[1])) {
                return true;
            }
        }
        return false;
    }
}
