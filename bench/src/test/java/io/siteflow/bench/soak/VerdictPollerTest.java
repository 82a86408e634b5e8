package io.siteflow.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class VerdictPollerTest {
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void readsCrossBytesAndRttSamplesPerServerOfTheFleet() throws Exception {
        SoakFleet fleet = new SoakFleet(3, "r");
        String answer = """
                [{"server":"10.2.0.1","remoteSite":"region1","crossBytes":8000,"rttMicros":{"p50":6500,"samples":2}},
                 {"server":"10.2.0.3","remoteSite":"region1","crossBytes":4000,"rttMicros":{"samples":1}},
                 {"server":"10.9.9.9","remoteSite":"region1","crossBytes":7,"rttMicros":{"samples":7}}]
                """;

        VerdictPoller.Totals t = VerdictPoller.totals(json.readTree(answer), fleet);

        assertThat(t.crossBytes()).containsExactly(8000, 0, 4000);
        assertThat(t.samples()).containsExactly(2, 0, 1);
        assertThat(t.records()).isEqualTo(3);
        assertThat(t.bytes()).isEqualTo(12_000);
        assertThat(t.pairs()).isEqualTo(3);
    }

    @Test
    void refusesAnAnswerThatIsNotAnArray() {
        assertThatThrownBy(() -> VerdictPoller.totals(json.readTree("{\"error\":\"x\"}"), new SoakFleet(1, "r")))
                .hasMessage("/api/verdicts: not a JSON array: OBJECT");
    }
}
