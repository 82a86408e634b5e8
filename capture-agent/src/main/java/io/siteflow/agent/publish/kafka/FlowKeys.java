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
