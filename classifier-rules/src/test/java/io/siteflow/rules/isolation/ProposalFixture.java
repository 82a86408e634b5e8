package io.siteflow.rules.isolation;

import io.siteflow.model.FlowRecord;
import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.load.LoadResult;
import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.rules.model.SiteModel;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** A two-site model with clusters, roles and an unlisted address, and the records and edges of its traffic. */
final class ProposalFixture {
    static final String MODEL = """
            defaults: fmw
            sites:
              region1: { cidrs: [10.1.0.0/16] }
              region2: { cidrs: [10.2.0.0/16] }
            hosts:
              - { address: 10.1.0.10, name: db1, role: db }
              - { address: 10.1.0.5, name: admin1, role: admin }
              - { address: 10.1.0.21, name: wls1, role: app-server, cluster: soa_cluster }
              - { address: 10.1.0.22, name: wls2, role: app-server, cluster: soa_cluster }
              - { address: 10.2.0.20, name: wls3, role: app-server, cluster: soa_cluster }
              - { address: 10.2.0.30, name: osb3, role: app-server, cluster: osb_cluster }
              - { address: 10.2.0.25, name: batch3, role: app-server }
            """;
    static final long T0 = 1_764_000_000_000L;
    private static final AtomicLong IDS = new AtomicLong();

    private ProposalFixture() {
    }

    /** The model of the text, which must load without a diagnostic. */
    static SiteModel model(String text) {
        LoadResult r = SiteModelLoader.parse("sites.yaml", text);
        if (!r.diagnostics().isEmpty() || r.model().isEmpty()) {
            throw new AssertionError("diagnostics: " + r.diagnostics() + "\n" + text);
        }
        return r.model().get();
    }

    /** A final TCP or UDP record of {@code bytes} each way (10 packets each way), at {@code T0 + atS} seconds. */
    static FlowRecord flow(int proto, String src, String dst, int dstPort, long bytes, int atS, String l7) {
        long start = T0 + atS * 1000L;
        return FlowRecord.builder().id("run-1:" + IDS.incrementAndGet()).agent("agent-1").iface("test.pcap")
                .time(start, start + 500).endpoints(proto, src, 40_000 + atS, dst, dstPort)
                .forward(bytes, 10, bytes + 140, proto == 6 ? 0x1b : 0).reverse(bytes, 10, bytes + 140, proto == 6 ? 0x1b : 0)
                .l7(l7).isFinal(true).build();
    }

    /** A TCP record. */
    static FlowRecord tcp(String src, String dst, int dstPort, long bytes, int atS, String l7) {
        return flow(6, src, dst, dstPort, bytes, atS, l7);
    }

    /**
     * The traffic: soa_cluster's two sites to the database (TNS, two flows on one edge), inside soa_cluster (T3 and
     * JMS over T3), Coherence over UDP, the admin server to a managed server, a server of no cluster and an unlisted
     * address to the database (no L7 detected), OSB to SOA over HTTP (two flows on one edge).
     */
    static List<FlowRecord> traffic() {
        return List.of(
                tcp("10.2.0.20", "10.1.0.10", 1521, 50_000, 0, "oracle-tns"),
                tcp("10.2.0.20", "10.1.0.10", 1521, 30_000, 5, "oracle-tns"),
                tcp("10.1.0.21", "10.2.0.20", 7001, 4_000, 1, "t3"),
                tcp("10.2.0.20", "10.1.0.21", 7001, 3_000, 2, "t3"),
                tcp("10.2.0.20", "10.1.0.21", 8011, 2_000, 3, "t3-jms"),
                flow(17, "10.1.0.21", "10.2.0.20", 8088, 1_000, 4, null),
                tcp("10.1.0.5", "10.2.0.20", 7001, 700, 6, "t3"),
                tcp("10.2.0.25", "10.1.0.10", 1521, 9_000, 7, "oracle-tns"),
                tcp("10.2.0.99", "10.1.0.10", 1521, 600, 8, null),
                tcp("10.2.0.30", "10.1.0.21", 8001, 500, 9, "http"),
                tcp("10.2.0.30", "10.1.0.21", 8001, 400, 10, "http"));
    }

    /** The records as a proposal is made from them: an entry per edge, category and L7. */
    static IsolationInputs proposalInputs(SiteModel model, List<FlowRecord> records) {
        IsolationInputsBuilder b = IsolationInputsBuilder.forProposal(IsolationEvaluator.orEmpty(new Classifier(model)));
        records.forEach(b::add);
        return b.build(T0, T0 + 3_600_000, List.of());
    }

    /** The records decided by the model's policy (or an empty one) as the offline check accumulates them. */
    static IsolationInputs inputs(SiteModel model, List<FlowRecord> records) {
        IsolationInputsBuilder b = new IsolationInputsBuilder(IsolationEvaluator.orEmpty(new Classifier(model)));
        records.forEach(b::add);
        return b.build(T0, T0 + 3_600_000, List.of());
    }
}
