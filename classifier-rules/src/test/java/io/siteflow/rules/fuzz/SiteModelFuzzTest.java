package io.siteflow.rules.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.siteflow.model.IpAddresses;
import io.siteflow.model.L7Protocol;
import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.isolation.Decision;
import io.siteflow.rules.isolation.IsolationDecision;
import io.siteflow.rules.isolation.IsolationEvaluator;
import io.siteflow.rules.load.Diagnostic;
import io.siteflow.rules.load.LoadResult;
import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.rules.model.Flow;
import io.siteflow.rules.model.Host;
import io.siteflow.rules.model.IsolationPolicy;
import io.siteflow.rules.model.SiteModel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * Fuzz harness for {@code sites.yaml} loading ({@link SiteModelLoader#parse}): any text gives a result, never an
 * exception; every diagnostic names the file, a line and a column from 1 and says what is wrong; a model is
 * built exactly when there is no error. A model with an {@code isolation:} block also gives an evaluator that decides
 * flows between its hosts without throwing: a DENIED or ALLOWED decision names a rule of the policy, a violation is
 * DENIED or UNLISTED under {@code default: deny}, the same text gives the same policy version. Seeds:
 * {@code src/test/resources/io/siteflow/rules/fuzz/SiteModelFuzzTestInputs/} (one with an isolation block); the
 * dictionary holds the block's keys and values; docs/FUZZING.md.
 */
class SiteModelFuzzTest {

    @FuzzTest
    @DictionaryEntries({"isolation:", "scope:", "cross-site", "all", "default:", "deny", "allow", "groups:",
        "deny:", "allow:", "hosts:", "roles:", "sites:", "cidrs:", "clusters:", "cluster:", "name:", "from:", "to:",
        "categories:", "ports:", "proto:", "l7:", "any", "unlisted", "t3", "t3-jms", "oracle-tns", "DB", "CLUSTER",
        "JMS", "- {", "{ ", " }", "[", "]", ", "})
    void loadsOrReportsEveryProblemWithItsPosition(byte[] yaml) {
        String text = new String(yaml, StandardCharsets.UTF_8);
        LoadResult result = SiteModelLoader.parse("sites.yaml", text);

        for (Diagnostic d : result.diagnostics()) {
            assertThat(d.file()).isEqualTo("sites.yaml");
            assertThat(d.line()).as(d.toString()).isPositive();
            assertThat(d.column()).as(d.toString()).isPositive();
            assertThat(d.message()).as(d.toString()).isNotBlank();
        }
        assertThat(result.model().isPresent()).as(result.diagnostics().toString())
                .isEqualTo(result.errors().isEmpty());
        result.model().flatMap(SiteModel::isolation).ifPresent(p -> {
            assertThat(SiteModelLoader.parse("sites.yaml", text).model().flatMap(SiteModel::isolation)
                    .map(IsolationPolicy::version)).contains(p.version());
            decidesFlowsBetweenItsHosts(result.model().get(), p);
        });
    }

    private static void decidesFlowsBetweenItsHosts(SiteModel model, IsolationPolicy policy) {
        IsolationEvaluator e = new IsolationEvaluator(new Classifier(model));
        List<Host> hosts = model.hosts().subList(0, Math.min(4, model.hosts().size()));
        for (Host a : hosts) {
            for (Host b : hosts) {
                for (L7Protocol l7 : new L7Protocol[] {L7Protocol.UNKNOWN, L7Protocol.T3}) {
                    Flow f = new Flow(6, a.hi(), a.lo(), 40000, b.hi(), b.lo(), 1521, l7);
                    Optional<IsolationDecision> d = e.decide(f, e.classifier().classify(f));
                    d.ifPresent(x -> checkDecision(x, policy, f + " from " + IpAddresses.format(a.hi(), a.lo())));
                }
            }
        }
    }

    private static void checkDecision(IsolationDecision d, IsolationPolicy policy, String flow) {
        if (d.decision() == Decision.UNLISTED) {
            assertThat(d.rule()).as(flow).isEmpty();
            assertThat(d.violates()).as(flow).isEqualTo(policy.defaultAction() == IsolationPolicy.DefaultAction.DENY);
        } else {
            assertThat(policy.rule(d.rule())).as(flow).isPresent();
            assertThat(d.violates()).as(flow).isEqualTo(d.decision() == Decision.DENIED);
        }
        assertThat(d.fromGroups() & 1L).as(flow + ": every address is in any").isEqualTo(1L);
        assertThat(d.toGroups() & 1L).as(flow).isEqualTo(1L);
    }
}
