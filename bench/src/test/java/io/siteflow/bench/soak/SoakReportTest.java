package io.siteflow.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.bench.soak.SoakOptions.Watched;
import io.siteflow.bench.soak.SoakSeries.Row;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class SoakReportTest {
    private static final SoakOptions OPTIONS = SoakOptions.parse("--bootstrap", "b:1", "--api", "http://h:2",
            "--csv", "s.csv", "--agents", "2", "--rate", "100", "--duration", "20s", "--warmup", "10s");
    private static final List<Watched> PROCESSORS = List.of(new Watched("processor1", 11, Path.of("gc.log")));
    private static final List<Watched> OTHERS = List.of(new Watched("broker1", 12, null));
    // per row: processor1 rss, heap after gc, committed, pauses, pause ms, max pause, cpu; broker1 rss, cpu
    private static final List<Row> ROWS = List.of(
            new Row(0, "start", 0, 0, 0, 0, 0, -1, -1, -1, new double[] {300, Double.NaN, Double.NaN, 0, 0, 0, 5,
                400, 3}),
            new Row(10, "load", 1000, 1000, 900, 100, 900, 120, 300, 310, new double[] {400, 40, 245, 2, 9, 6, 30,
                420, 20}),
            new Row(20, "load", 2000, 2000, 1900, 100, 1000, 150, 700, 800, new double[] {420, 42, 245, 1, 3, 3, 50,
                430, 40}),
            new Row(22, "end", 2000, 2000, 2000, 0, 100, 90, 95, 95, new double[] {440, 42, 245, 0, 0, 0, 1, 431, 1}));

    @Test
    void printsProducedCountedLagAndTheProcessTable() {
        Produced produced = new Produced(2000, 2000, 8_000_000, 0, null, new long[] {1000, 1000},
                new long[] {4_000_000, 4_000_000});
        VerdictPoller.Totals counted = new VerdictPoller.Totals(new long[] {4_000_000, 4_000_000},
                new long[] {1000, 1000}, 2);
        LagStats lag = new LagStats();
        for (int i = 0; i < 2000; i++) {
            lag.add(i < 1000 ? 100 : 700);
        }

        SoakReport r = new SoakReport(OPTIONS, produced, counted, lag, ROWS, 20.4, PROCESSORS, OTHERS,
                i -> List.of(6.0, 3.0, 3.0), new SoakReport.Readings(80, 12.5, 40, 0, null));

        assertThat(r.equal()).isTrue();
        assertThat(r.text()).isEqualTo("""
                cluster soak: 2 agents over 2 producers, 100 records/s offered for 20 s; verdicts read from \
                http://h:2 500 ms apart
                records produced (acknowledged by Kafka): 2,000 of 2,000 offered, 0 failed sends; 100 records/s
                records counted in the cumulative verdicts: 2,000 (rttMicros.samples over 2 pairs); cross-site bytes \
                8,000,000 counted of 8,000,000 produced: EQUAL
                end-to-end lag, send() -> first /api/verdicts reading that counts the record: p50 100 ms, p99 700 ms, \
                max 700 ms over 2,000 records; worst 10-s p99 700 ms (interval ending at 20 s); 0 records never counted
                verdict readings: 80, 13 ms each on average, the longest 40 ms
                samples: start t=0 s, after warm-up t=10 s, end t=22 s (the load ended at 20 s)

                | process | RSS start / warm-up / end MiB | end vs warm-up | heap after GC start / warm-up / end MiB \
                | GC pauses: count, total, max, p99 | CPU, mean while loading (100% = one core) |
                |---|---|---|---|---|---|
                | processor1 | 300 / 400 / 440 | +10.0% | - / 40 / 42 | 3, 12 ms, 6 ms, 6 ms | 40% |
                | broker1 | 400 / 420 / 431 | +2.6% | | | 30% |
                """);
    }

    @Test
    void isNotEqualWhenOneServerLostARecordEvenIfTheTotalsMatch() {
        Produced produced = new Produced(4, 4, 16, 0, null, new long[] {2, 2}, new long[] {8, 8});
        VerdictPoller.Totals counted = new VerdictPoller.Totals(new long[] {4, 12}, new long[] {1, 3}, 2);

        SoakReport r = new SoakReport(OPTIONS, produced, counted, new LagStats(), ROWS, 20.4, PROCESSORS, OTHERS,
                i -> List.of(),
                new SoakReport.Readings(80, 12.5, 40, 1, "http://h:2/api/verdicts: HTTP 503: starting"));

        assertThat(r.equal()).isFalse();
        assertThat(r.text()).contains("cross-site bytes 16 counted of 16 produced: NOT EQUAL (2 servers differ)\n")
                .contains("verdict readings: 80, 13 ms each on average, the longest 40 ms; 1 failed (last: "
                        + "http://h:2/api/verdicts: HTTP 503: starting)\n")
                .contains("| processor1 | 300 / 400 / 440 | +10.0% | - / 40 / 42 | 0, 0 ms, 0 ms, 0 ms | 40% |\n");
    }
}
