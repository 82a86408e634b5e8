package io.siteflow.agent.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.agent.config.ReportOrder;
import io.siteflow.agent.decode.Packet;
import io.siteflow.agent.flow.RemoteSiteFilter;
import io.siteflow.model.Cidr;
import io.siteflow.model.IpAddresses;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The report's numbers against iftop 1.0pre4's rules (capture-agent/docs/report.md): 2-second slots that
 * have ended, the still-filling one left out, each column divided by the time seen while under its span.
 * Traffic is 50,000-byte packets every 50 ms: 1,000,000 bytes/s, which iftop prints as 7.63Mb.
 */
class TextReportTest {
    private static final long MS = 1_000_000L;
    private static final RemoteSiteFilter SITE_1 = new RemoteSiteFilter(List.of(Cidr.parse("10.1.0.0/16")));

    @Test
    void leavesOutTheSlotStillFillingAtTheEndOfTheCapture() {
        TextReport report = new TextReport(SITE_1, false, ReportOrder.TEN_SECONDS, false);
        // given: 60.45 s of 8 Mb/s, the last 0.45 s in a slot that has not ended
        long end = steady(report, "10.1.0.10", "10.2.0.20", 100_000, 160_450);

        String text = print(report, end);

        // then: every column shows the 8 Mb/s (the partial slot would make the 2 s column 2.15Mb)
        assertThat(text).contains("   1 10.1.0.10                                =>     7.63Mb     7.63Mb     7.63Mb     57.7MB\n"
                + "     10.2.0.20                                <=         0b         0b         0b         0B\n");
        assertThat(text).contains("Total send rate:                                     7.63Mb     7.63Mb     7.63Mb\n"
                + "Total receive rate:                                      0b         0b         0b\n"
                + "Total send and receive rate:                         7.63Mb     7.63Mb     7.63Mb\n");
        assertThat(text).contains("Peak rate (sent/received/total):                     7.63Mb         0b     7.63Mb\n"
                + "Cumulative (sent/received/total):                    57.7MB         0B     57.7MB\n");
    }

    @Test
    void dividesByTheTimeSeenWhileLessThanAColumnsSpan() {
        TextReport report = new TextReport(SITE_1, false, ReportOrder.TEN_SECONDS, false);
        // given: 20.45 s of 8 Mb/s from the start of the capture: ten slots have ended
        long end = steady(report, "10.1.0.10", "10.2.0.20", 100_000, 120_450);

        // then: the 40 s column divides by the 20 s seen, not by 40 (which would show 3.81Mb)
        assertThat(print(report, end)).contains("   1 10.1.0.10                                =>     7.63Mb     7.63Mb     7.63Mb     19.6MB\n");
    }

    @Test
    void countsTheFirstSlotAsTwoSecondsEvenWhenTheCaptureStartedWithinIt() {
        TextReport report = new TextReport(SITE_1, false, ReportOrder.TEN_SECONDS, false);
        // given: the capture starts at 101 s, one second into the slot 100-102 s, and runs to 103 s
        report.begin(101_000 * MS);
        long end = steady(report, "10.1.0.10", "10.2.0.20", 101_000, 103_000);

        // then: the slot's 1,000,000 bytes over 2 s in every column, as iftop's first history slot
        assertThat(print(report, end)).contains("=>     3.81Mb     3.81Mb     3.81Mb     1.96MB\n");
    }

    @Test
    void showsZeroRatesBeforeTheFirstSlotHasEnded() {
        TextReport report = new TextReport(SITE_1, false, ReportOrder.TEN_SECONDS, false);
        long end = steady(report, "10.1.0.10", "10.2.0.20", 100_000, 101_000);

        assertThat(print(report, end)).contains("=>         0b         0b         0b     1.00MB\n");
    }

    @Test
    void dropsAPairSilentForFortySecondsAsIftopDoes() {
        TextReport report = new TextReport(SITE_1, false, ReportOrder.TEN_SECONDS, false);
        // given: one pair for 2 s at the start, another for the whole 46 s
        offer(report, "10.1.0.11", "10.2.0.21", 100_000 * MS, 1_000);
        long end = steady(report, "10.1.0.10", "10.2.0.20", 100_000, 146_000);

        String text = print(report, end);

        // then: slots 100-102 s .. 144-146 s are 23 slots; the first pair's last one is out of the 20 kept
        assertThat(text).doesNotContain("10.1.0.11").contains("   1 10.1.0.10 ");
        // and the totals still count its bytes
        assertThat(text).contains("Cumulative (sent/received/total):                    43.9MB         0B     43.9MB\n");
    }

    @Test
    void peakIsTheLargestSlotOfTheLast40SecondsHalvedInIntegers() {
        TextReport report = new TextReport(SITE_1, false, ReportOrder.TEN_SECONDS, true);
        // given: 5 bytes out and 3 bytes back in slot 100-102 s, then 1 byte in slot 102-104 s
        offer(report, "10.1.0.10", "10.2.0.20", 100_000 * MS, 5);
        offer(report, "10.2.0.20", "10.1.0.10", 100_500 * MS, 3);
        offer(report, "10.1.0.10", "10.2.0.20", 102_000 * MS, 1);

        String text = print(report, 104_000 * MS);

        // then: peaks 5/2=2, 3/2=1, 8/2=4 bytes/s (-B); the 2 s column's 0.5 B/s prints as 0 (half to even)
        assertThat(text).contains("Peak rate (sent/received/total):                         2B         1B         4B\n");
        assertThat(text).contains("   1 10.1.0.10                                =>         0B         2B         2B         6B\n");
    }

    @Test
    void sortsByTheChosenColumnOrByAddress() {
        // given: a pair busy early (10.1.0.12) and one busy in the last 2 s (10.1.0.13)
        TextReport byTen = new TextReport(SITE_1, false, ReportOrder.TEN_SECONDS, false);
        TextReport byTwo = new TextReport(SITE_1, false, ReportOrder.TWO_SECONDS, false);
        TextReport bySource = new TextReport(SITE_1, false, ReportOrder.SOURCE, false);
        for (TextReport r : List.of(byTen, byTwo, bySource)) {
            offer(r, "10.1.0.12", "10.2.0.20", 100_000 * MS, 900_000);
            offer(r, "10.1.0.13", "10.2.0.20", 108_000 * MS, 100_000);
            offer(r, "10.1.0.9", "10.2.0.20", 108_000 * MS, 10);
        }

        assertThat(order(print(byTen, 110_000 * MS))).containsExactly("10.1.0.12", "10.1.0.13", "10.1.0.9");
        assertThat(order(print(byTwo, 110_000 * MS))).containsExactly("10.1.0.13", "10.1.0.9", "10.1.0.12");
        assertThat(order(print(bySource, 110_000 * MS))).containsExactly("10.1.0.12", "10.1.0.13", "10.1.0.9");
    }

    @Test
    void printsPortPairsWithIpv6InBracketsAsIftopDoes() {
        assertThat(ReportLayout.host("fd00:1::10", 1521, false)).isEqualTo("[fd00:1::10]:1521" + " ".repeat(23));
        assertThat(ReportLayout.host("10.1.0.10", 443, true)).isEqualTo("10.1.0.10:443" + " ".repeat(27));
        assertThat(ReportLayout.host("10.1.0.10", 0, true)).isEqualTo("10.1.0.10" + " ".repeat(31));
    }

    @Test
    void printsTheHeaderAndRulesOfIftop() {
        TextReport report = new TextReport(SITE_1, false, ReportOrder.TEN_SECONDS, false);
        String text = print(report, 100_000 * MS);

        assertThat(text).startsWith("Listening on lab0\n"
                + "   # Host name (port/service if enabled)            last 2s   last 10s   last 40s cumulative\n"
                + "-".repeat(92) + "\n" + "-".repeat(92) + "\n");
        assertThat(text).endsWith("=".repeat(92) + "\n\n");
    }

    /** Sends 50,000 bytes every 50 ms from {@code fromMs} to {@code toMs} inclusive; returns the last time. */
    private static long steady(TextReport report, String src, String dst, long fromMs, long toMs) {
        long t = fromMs;
        for (; t <= toMs; t += 50) {
            offer(report, src, dst, t * MS, 50_000);
        }
        return (t - 50) * MS;
    }

    private static void offer(TextReport report, String src, String dst, long nanos, int bytes) {
        Packet p = new Packet();
        long[] s = IpAddresses.parse(src);
        long[] d = IpAddresses.parse(dst);
        p.ipVersion = 4;
        p.srcHi = s[0];
        p.srcLo = s[1];
        p.dstHi = d[0];
        p.dstLo = d[1];
        p.ipBytes = bytes;
        report.offer(p, nanos);
    }

    private static String print(TextReport report, long nowNanos) {
        StringWriter w = new StringWriter();
        report.print(new PrintWriter(w), "lab0", 0, nowNanos);
        return w.toString().replace(System.lineSeparator(), "\n");
    }

    private static List<String> order(String text) {
        return text.lines().filter(l -> l.contains("=>")).map(l -> l.substring(5, 45).strip()).toList();
    }
}
