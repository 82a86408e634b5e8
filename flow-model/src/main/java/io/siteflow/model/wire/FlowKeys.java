package io.siteflow.model.wire;

import io.siteflow.model.Cidr;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.IpAddresses;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Function;

/**
 * The key of a flow record and the partition of a key (DESIGN.md, "Kafka topics"): all records of one local
 * server land in one partition. The agent keys what it publishes with {@link #forCapture}; the stream processor
 * finds the partition a server's key goes to with {@link #partition}, the rule of Kafka's default partitioner, so
 * that both ends agree without either restating it. Stateless, thread-safe; JDK only.
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

    /**
     * The partition of {@code key} among {@code partitions}, as Kafka's default partitioner (and Kafka Streams'
     * default stream partitioner) choose it for a keyed record: the positive part of the murmur2 hash of the key's
     * UTF-8 bytes, modulo the partition count.
     *
     * @throws IllegalArgumentException when {@code partitions} is not positive
     */
    public static int partition(String key, int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be at least 1, not " + partitions);
        }
        return (murmur2(key.getBytes(StandardCharsets.UTF_8)) & 0x7fffffff) % partitions;
    }

    /** The 32-bit murmur2 hash with Kafka's seed, as {@code org.apache.kafka.common.utils.Utils.murmur2}. */
    static int murmur2(byte[] data) {
        int length = data.length;
        int m = 0x5bd1e995;
        int r = 24;
        int h = 0x9747b28c ^ length;
        int length4 = length / 4;
        for (int i = 0; i < length4; i++) {
            int i4 = i * 4;
            int k = (data[i4] & 0xff) + ((data[i4 + 1] & 0xff) << 8) + ((data[i4 + 2] & 0xff) << 16)
                    + ((data[i4 + 3] & 0xff) << 24);
            k *= m;
            k ^= k >>> r;
            k *= m;
            h *= m;
            h ^= k;
        }
        int tail = length4 * 4;
        switch (length % 4) {
            case 3:
                h ^= (data[tail + 2] & 0xff) << 16;
            // fall through
            case 2:
                h ^= (data[tail + 1] & 0xff) << 8;
            // fall through
            case 1:
                h ^= data[tail] & 0xff;
                h *= m;
                break;
            default:
                break;
        }
        h ^= h >>> 13;
        h *= m;
        h ^= h >>> 15;
        return h;
    }
}
