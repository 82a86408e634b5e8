package io.siteflow.processor.topology;

import io.siteflow.model.FlowRecord;

/** Flow records for tests: a builder over the fields the topology looks at. */
final class Flows {
    static final String SITES_YAML = """
            threshold: 0.90
            minCrossBytes: 1000
            defaults: none
            sites:
              region1: { cidrs: [10.1.0.0/16] }
              region2: { cidrs: [10.2.0.0/16] }
              region3: { cidrs: [10.3.0.0/16] }
            hosts:
              - { address: 10.1.0.10, name: db1, role: db }
              - { address: 10.1.0.11, name: wls1, role: app-server }
              - { address: 10.2.0.20, name: wls3, role: app-server }
              - { address: 10.3.0.30, name: wls5, role: app-server }
            rules:
              - { name: oracle-ports, category: DB, ports: [1521] }
              - { name: t3, category: CLUSTER, ports: [7001] }
            """;
    /** Base event time: a whole minute. */
    static final long T0 = 1_764_000_000_000L;
    private static int counter;

    private String agent = "edge-b";
    private long start = T0;
    private long end = T0;
    private String src = "10.2.0.20";
    private int srcPort = 40000;
    private String dst = "10.1.0.10";
    private int dstPort = 1521;
    private long bytes = 1000;
    private long rbytes = 0;
    private Long rtt;
    private String id;

    static Flows flow() {
        return new Flows();
    }

    Flows agent(String a) {
        agent = a;
        return this;
    }

    Flows at(long startMs) {
        start = startMs;
        end = startMs;
        return this;
    }

    Flows span(long startMs, long endMs) {
        start = startMs;
        end = endMs;
        return this;
    }

    Flows to(String address, int port) {
        dst = address;
        dstPort = port;
        return this;
    }

    Flows from(String address, int port) {
        src = address;
        srcPort = port;
        return this;
    }

    Flows bytes(long out, long in) {
        bytes = out;
        rbytes = in;
        return this;
    }

    private long calls;
    private long callMicros;

    Flows rtt(long micros) {
        rtt = micros;
        return this;
    }

    /** {@code n} DB calls of {@code micros} µs each. */
    Flows calls(long n, long micros) {
        calls = n;
        callMicros = micros;
        return this;
    }

    private String exporter;
    private Integer sampled;
    private long packets = 1;

    /**
     * As exporter {@code address} exported it, sampling 1 in {@code rate} (below 2: every packet counted), with
     * {@code packetCount} packets src to dst (the counts as scaled).
     */
    Flows exported(String address, int rate, long packetCount) {
        exporter = address;
        sampled = rate >= 2 ? rate : null;
        packets = packetCount;
        return this;
    }

    Flows id(String i) {
        id = i;
        return this;
    }

    FlowRecord build() {
        String i = id != null ? id : "run1-" + (++counter);
        io.siteflow.model.CallHistogram h = calls == 0 ? io.siteflow.model.CallHistogram.EMPTY
                : io.siteflow.model.CallHistogram.of(java.util.Map.of(io.siteflow.model.CallHistogram.bucketOf(callMicros),
                        calls));
        return FlowRecord.builder().id(i).agent(agent).iface("eth0").time(start, end)
                .endpoints(6, src, srcPort, dst, dstPort).forward(bytes, packets, bytes, 0x18)
                .reverse(rbytes, 1, rbytes, 0x18)
                .rttMicros(rtt).db(calls, calls * callMicros, h).exporter(exporter, exporter == null ? null : 0L)
                .sampled(sampled).build();
    }
}
