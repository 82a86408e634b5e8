package io.siteflow.agent.ebpf;

/**
 * The program's counters ({@code enum counter} in {@code flows.bpf.c}), summed over the CPUs, in packets (a GSO
 * packet on egress as the segments it becomes on the wire): packets the program ran on, packets that were not IP, IP
 * headers not whole, packets outside the {@code -F} networks (never aggregated), packets aggregated into a flow
 * (through the flow map or the overflow ring buffer), flow entries created (entries, not packets), packets of a new
 * flow that found the flow map full (sent to the ring buffer), and packets that found the ring buffer full too (lost:
 * counted here only); then records (not packets) of the {@code payloads} ring buffer: sent (payload bytes and
 * changes of direction, for L7, SNI and DB calls), and lost because it was full.
 */
public record KernelCounters(long seen, long notIp, long malformed, long filtered, long counted, long created,
        long mapFull, long lost, long payloadRecords, long payloadLost) {
    /** Slots of the counter map. */
    static final int COUNT = 10;

    /** All zero. */
    static final KernelCounters ZERO = new KernelCounters(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    static KernelCounters of(long[] c) {
        return new KernelCounters(c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9]);
    }
}
