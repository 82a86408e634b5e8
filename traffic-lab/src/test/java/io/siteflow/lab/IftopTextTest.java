package io.siteflow.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** iftop's text report read back into per-pair cumulative totals with the rounding iftop applied. */
class IftopTextTest {
    private static final String REPORT = """
            Listening on rt-r2
               # Host name (port/service if enabled)            last 2s   last 10s   last 40s cumulative
            --------------------------------------------------------------------------------------------
               1 10.1.0.10                                =>     3.69KB      228KB      209KB     2.86MB
                 10.2.0.20                                <=     1.78KB     60.4KB     54.9KB      768KB
               9 10.1.0.2                                 =>        42B        66B        53B       747B
                 10.2.0.21                                <=        34B        54B        43B       603B
            --------------------------------------------------------------------------------------------
            Cumulative (sent/received/total):                    3.78MB     1.47MB     5.26MB
            """;

    @Test
    void sumsBothDirectionsOfEachPairWithHalfALastDigitOfTolerance() {
        Map<String, IftopText.Total> pairs = IftopText.cumulative(REPORT);
        assertThat(pairs).containsOnlyKeys("10.1.0.10 10.2.0.20", "10.1.0.2 10.2.0.21");
        IftopText.Total db = pairs.get("10.1.0.10 10.2.0.20");
        assertThat(db.bytes()).isEqualTo(2.86 * 1024 * 1024 + 768 * 1024);
        assertThat(db.tolerance()).isEqualTo(0.005 * 1024 * 1024 + 0.5 * 1024);
        assertThat(db.agrees(3_783_402)).isTrue();
        assertThat(db.agrees(3_800_000)).isFalse();
        assertThat(pairs.get("10.1.0.2 10.2.0.21").agrees(1_350)).isTrue();
        assertThat(pairs.get("10.1.0.2 10.2.0.21").agrees(1_352)).isFalse();
    }

    @Test
    void rejectsAReceivedLineWithoutItsSentLine() {
        assertThatThrownBy(() -> IftopText.cumulative("     10.2.0.20     <=     1B     1B     1B     1B\n"))
                .hasMessage("iftop line 1: <= without a => line: 10.2.0.20     <=     1B     1B     1B     1B");
    }

    @Test
    void readsEveryColumnOfEveryReportAndComparesWithinRounding() {
        String report = """
                   # Host name (port/service if enabled)            last 2s   last 10s   last 40s cumulative
                --------------------------------------------------------------------------------------------
                   1 10.99.1.1                                =>     7.63Mb      999Kb         0b     1.00MB
                     10.99.1.2                                <=       800b     10.0Kb     3.81Mb       747B
                --------------------------------------------------------------------------------------------
                Total send rate:                                     7.63Mb      999Kb         0b
                Peak rate (sent/received/total):                     7.63Mb       800b     7.63Mb
                ============================================================================================

                """;
        List<IftopText.Report> reports = IftopText.reports(report + report.replace("7.63Mb", "7.62Mb"));

        assertThat(reports).hasSize(2);
        assertThat(reports.get(0).pairs()).containsOnlyKeys("10.99.1.1 10.99.1.2");
        assertThat(reports.get(0).pairs().get("10.99.1.1 10.99.1.2")).extracting(IftopText.Printed::text)
                .containsExactly("7.63Mb", "999Kb", "0b", "1.00MB", "800b", "10.0Kb", "3.81Mb", "747B");
        assertThat(reports.get(0).totals().get("Peak rate (sent/received/total)")).extracting(IftopText.Printed::text)
                .containsExactly("7.63Mb", "800b", "7.63Mb");
        IftopText.Printed a = reports.get(0).totals().get("Total send rate").get(0);
        assertThat(a.value()).isEqualTo(7.63 * 1024 * 1024);
        assertThat(a.tolerance()).isEqualTo(0.005 * 1024 * 1024);
        assertThat(a.agrees(IftopText.Printed.of("7.62Mb"))).isTrue();
        assertThat(a.agrees(IftopText.Printed.of("7.61Mb"))).isFalse();
        assertThat(a.agrees(IftopText.Printed.of("7.63MB"))).isFalse();
    }

    @Test
    void rejectsAValueIftopWouldNotPrint() {
        assertThatThrownBy(() -> IftopText.reports("   1 10.0.0.1   =>   1b   2b   3x   4B\n"))
                .hasMessage("iftop line 1: \"3x\" is not a value iftop prints");
    }
}
