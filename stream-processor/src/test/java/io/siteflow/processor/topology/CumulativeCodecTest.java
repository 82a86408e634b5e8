package io.siteflow.processor.topology;

import static io.siteflow.processor.topology.Flows.T0;
import static io.siteflow.processor.topology.Flows.flow;
import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.FlowRecord;
import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.rules.verdict.PairAggregate;
import io.siteflow.rules.verdict.PairAggregateJson;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class CumulativeCodecTest {

    @Test
    void writesEverythingButTheDbConnections() throws Exception {
        Classifier c = new Classifier(SiteModelLoader.parse("sites.yaml", Flows.SITES_YAML).orThrow());
        PairAggregate a = new PairAggregate();
        FlowRecord db = flow().at(T0).bytes(700, 300).rtt(6500).build();
        FlowRecord t3 = flow().at(T0).to("10.1.0.11", 7001).bytes(50, 0).build();
        a.add(db, c.classify(db), "10.1.0.10");
        a.add(t3, c.classify(t3), "10.1.0.11");

        byte[] compact = CumulativeCodec.COMPACT.serializer().serialize("t", a);
        PairAggregate back = CumulativeCodec.COMPACT.deserializer().deserialize("t", compact);

        assertThat(back.dbConnections().connections()).isZero();
        back.dbConnections().add("6 10.2.0.20 40000 10.1.0.10 1521", T0, T0);
        assertThat(new String(PairAggregateJson.toBytes(back), StandardCharsets.UTF_8))
                .isEqualTo(new String(PairAggregateJson.toBytes(a), StandardCharsets.UTF_8));
    }

    @Test
    void writesALifetimeInSixteenBytes() {
        byte[] b = CumulativeCodec.LIFETIME.serializer().serialize("t", new long[] {T0, T0 + 5});

        assertThat(b).hasSize(16);
        assertThat(CumulativeCodec.LIFETIME.deserializer().deserialize("t", b)).containsExactly(T0, T0 + 5);
    }
}
