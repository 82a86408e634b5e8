package io.siteflow.rules.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.siteflow.rules.classify.FlowSyntax;
import io.siteflow.rules.model.Flow;
import java.nio.charset.StandardCharsets;

/**
 * Fuzz harness for the flow syntax of {@code siteflow rules explain} ({@link FlowSyntax#parse}): any text parses
 * or is refused with an {@link IllegalArgumentException} that says why; a parsed flow prints
 * ({@link Flow#toString()}) in the same syntax and parses back to the same flow. Seeds:
 * {@code src/test/resources/io/siteflow/rules/fuzz/FlowSyntaxFuzzTestInputs/}; docs/FUZZING.md.
 */
class FlowSyntaxFuzzTest {

    @FuzzTest
    void parsesOrRefusesAndPrintsBackTheSameFlow(byte[] text) {
        Flow flow;
        try {
            flow = FlowSyntax.parse(new String(text, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).isNotBlank();
            return;
        }
        assertThat(FlowSyntax.parse(flow.toString())).isEqualTo(flow);
    }
}
