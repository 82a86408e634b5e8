package io.siteflow.rules.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.rules.classify.Classification;
import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.model.Flow;
import io.siteflow.rules.model.SiteModel;
import org.junit.jupiter.api.Test;

class AuditRoutesTest {
    static final String YAML = OfflineAuditTest.YAML + """
            audit:
              - { server: wls3, remoteSite: region1 }
              - { server: wls1, remoteSite: region2 }
            """;

    private static String describe(AuditSide s) {
        return s.pair().key() + (s.initiator() ? " initiator" : " responder") + " remote " + s.remoteAddress();
    }

    @Test
    void routesAFlowBetweenTwoAuditedServersToBothInitiatorFirst() throws Exception {
        SiteModel m = OfflineAuditTest.model(YAML);
        Flow f = Classifier.flowOf(Records.tcp("10.2.0.20", 40000, "10.1.0.11", 7001, 1, 1, 0));
        Classification c = new Classifier(m).classify(f);

        assertThat(AuditRoutes.of(m).sides(f, c)).extracting(AuditRoutesTest::describe).containsExactly(
                "10.2.0.20 region1 initiator remote 10.1.0.11", "10.1.0.11 region2 responder remote 10.2.0.20");
    }

    @Test
    void routesAFlowToTheResponderAloneWhenOnlyItsPairIsAudited() throws Exception {
        SiteModel m = OfflineAuditTest.model(YAML);
        Flow f = Classifier.flowOf(Records.tcp("10.1.0.10", 40000, "10.2.0.20", 7001, 1, 1, 0));
        Classification c = new Classifier(m).classify(f);

        assertThat(AuditRoutes.of(m).sides(f, c)).extracting(AuditRoutesTest::describe)
                .containsExactly("10.2.0.20 region1 responder remote 10.1.0.10");
        assertThat(AuditRoutes.of(m).side("10.2.0.20", f, c).map(AuditRoutesTest::describe))
                .contains("10.2.0.20 region1 responder remote 10.1.0.10");
        assertThat(AuditRoutes.of(m).side("10.1.0.10", f, c)).isEmpty();
    }

    @Test
    void routesNothingForAFlowWithinOneSite() throws Exception {
        SiteModel m = OfflineAuditTest.model(YAML);
        Flow f = Classifier.flowOf(Records.tcp("10.2.0.20", 40000, "10.2.0.99", 1521, 1, 1, 0));

        assertThat(AuditRoutes.of(m).sides(f, new Classifier(m).classify(f))).isEmpty();
    }
}
