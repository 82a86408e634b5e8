package io.siteflow.synth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StretchedClusterScenarioTest {
    @TempDir
    Path dir;

    private static StretchedClusterScenario.Builder scenario() {
        return StretchedClusterScenario.builder().duration(Duration.ofSeconds(30));
    }

    @Test
    void sameSettingsGiveByteIdenticalFilesAndEqualTruths() throws Exception {
        Path a = dir.resolve("a.pcap");
        Path b = dir.resolve("b.pcap");
        Path c = dir.resolve("c.pcap");
        ScenarioTruth ta = scenario().build().write(a);
        ScenarioTruth tb = scenario().build().write(b);
        scenario().seed(7).build().write(c);

        assertThat(Files.mismatch(a, b)).isEqualTo(-1L);
        assertThat(ta).isEqualTo(tb);
        assertThat(ta.toJson()).isEqualTo(tb.toJson());
        assertThat(Files.mismatch(a, c)).isNotEqualTo(-1L);
    }

    @Test
    void truthJsonNamesTheScenarioAndItsNumbers() throws Exception {
        ScenarioTruth truth = scenario().build().write(dir.resolve("wls3.pcap"));
        Path json = dir.resolve("wls3.truth.json");

        truth.writeJson(json);

        String text = Files.readString(json);
        assertThat(text).startsWith("{\n  \"scenario\" : \"stretched-cluster\",\n  \"capturePoint\" : \"host wls3\",")
                .contains("\"interRegion\" : 6500", "\"dbConnections\" : {\n    \"10.2.0.20\" : 20\n  }",
                        "\"packets\" : " + truth.packets(), "\"category\" : \"JMS\"");
    }

    @Test
    void rejectsUnknownHostsAndSharesOutsideZeroToOne() {
        assertThatThrownBy(() -> StretchedClusterScenario.builder().capturePoint(CapturePoint.host("wls9")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown host wls9 (known: db1, admin, dns1, wls1, wls2, wls3, wls4)");
        assertThatThrownBy(() -> StretchedClusterScenario.builder().dbShare("wls3", 1.0))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("wls3: DB share 1.0 is not in (0, 1)");
    }
}
