package io.siteflow.lab.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.siteflow.agent.app.AgentRunner;
import io.siteflow.agent.config.CaptureOptions;
import io.siteflow.lab.IftopText;
import io.siteflow.lab.NetnsLab;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real {@code iftop -t -P -n -N -L 100 -F A/32} (1.0pre4, printing a report every 2 s) and the agent's
 * {@code --text -s N -P -F A/32} on the same veth in network namespaces: at 12 s and 30 s (less than 40 s of
 * history, so the 10 s and 40 s columns divide by the time seen) and at 50 s (more), every column of every
 * port pair and of the totals agrees within iftop's rounding.
 *
 * <p>Both must slice time alike. iftop starts its 2-second slots at the second it starts and moves to the next
 * slot at the first packet it processes after that (libpcap hands it packets up to a second late); the agent's
 * slots sit on even seconds of the packets' kernel times. So iftop and the agents are started in the first
 * half of an even second E, and traffic comes in bursts from 0.05 s to 0.85 s after each even second, each
 * burst led by enough small datagrams to fill a libpcap ring block (iftop sees the burst at once, so its slot
 * changes within that second), then nothing until the next even second, longer than libpcap's 1 s block timeout
 * (every packet of a burst reaches iftop before the next slot begins). One port pair stops after 8 s: 40 s
 * later it has left both reports. If the starts miss the first half of E, the test starts over at the next
 * even second (up to three times).
 */
class IftopComparisonIT {
    private static final int[] SAMPLES = {12, 30, 50};
    private static final int LAST = SAMPLES[SAMPLES.length - 1];
    private static final long SECOND = 1000;

    @TempDir
    Path dir;

    private record Run(long epochSecond, Process iftop, Path iftopLog, List<AgentRunner> agents,
            List<StringWriter> outs, List<StringWriter> errs, List<Future<Integer>> exits) {
        void stop() {
            agents.forEach(AgentRunner::stop);
            iftop.destroy();
        }
    }

    @Test
    void agentPrintsTheColumnsIftopPrintsMidRunAndAtTheEnd() throws Exception {
        ExecutorService pool = Executors.newCachedThreadPool();
        try (NetnsLab lab = NetnsLab.create().secondSubnet()) {
            String inside = lab.addressA() + "/32";
            Run run = null;
            for (int attempt = 1; run == null && attempt <= 3; attempt++) {
                run = start(lab, inside, pool, attempt);
            }
            assertThat(run).as("iftop and the agents did not start within the first half of an even second").isNotNull();
            try (Bursts bursts = Bursts.start(lab, run.epochSecond() * SECOND, LAST)) {
                for (Future<Integer> exit : run.exits()) {
                    assertThat(exit.get(LAST + 30, TimeUnit.SECONDS)).isZero();
                }
                Path log = run.iftopLog();
                await("iftop's report at " + LAST + " s").atMost(Duration.ofSeconds(15))
                        .until(() -> IftopText.reports(Files.readString(log)).size() >= LAST / 2);
            } finally {
                run.iftop().getOutputStream().write('q');
                run.iftop().getOutputStream().flush();
                run.stop();
            }
            String iftopText = Files.readString(run.iftopLog());
            List<IftopText.Report> iftop = IftopText.reports(iftopText);
            System.out.println("iftop:\n" + iftopText);
            run.outs().forEach(o -> System.out.println("agent:\n" + o));
            for (int i = 0; i < SAMPLES.length; i++) {
                IftopText.Report ours = single(run.outs().get(i).toString(), run.errs().get(i).toString());
                // iftop's k-th report is printed when its slot ending at E + 2k has ended
                compare(SAMPLES[i], iftop.get(SAMPLES[i] / 2 - 1), ours);
            }
            assertThat(iftop.get(SAMPLES[0] / 2 - 1).pairs()).as("the early pair at 12 s").hasSize(3);
            assertThat(iftop.get(LAST / 2 - 1).pairs()).as("the early pair gone 40 s after it stopped").hasSize(2);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Starts iftop and one agent per sample at 0.02 s past an even second; null when one was not capturing by 0.9 s. */
    private Run start(NetnsLab lab, String inside, ExecutorService pool, int attempt) throws Exception {
        long e = (System.currentTimeMillis() / SECOND + 2) / 2 * 2;
        await().atMost(Duration.ofSeconds(4)).pollInterval(Duration.ofMillis(5))
                .until(() -> System.currentTimeMillis() >= e * SECOND + 20);
        Path log = dir.resolve("iftop-" + attempt + ".txt");
        Process iftop = lab.start(lab.nsA(), List.of("stdbuf", "-oL", "/usr/sbin/iftop", "-i", NetnsLab.IF_A, "-t",
                "-P", "-n", "-N", "-L", "100", "-F", inside), log);
        List<AgentRunner> agents = new ArrayList<>();
        List<StringWriter> outs = new ArrayList<>();
        List<StringWriter> errs = new ArrayList<>();
        List<Future<Integer>> exits = new ArrayList<>();
        for (int seconds : SAMPLES) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            CaptureOptions options = CaptureOptions.builder().iface(NetnsLab.IF_A).text(true).seconds(seconds).ports(true)
                    .lines(0).remoteCidr(inside).agent("iftop-it").spoolDir(dir.resolve("spool")).build();
            AgentRunner agent = new AgentRunner(options, new PrintWriter(out, true), new PrintWriter(err, true));
            agents.add(agent);
            outs.add(out);
            errs.add(err);
            exits.add(pool.submit(() -> lab.call(lab.nsA(), agent::run)));
        }
        Run run = new Run(e, iftop, log, agents, outs, errs, exits);
        long left = e * SECOND + 900 - System.currentTimeMillis();
        try {
            await("iftop and the agents capturing").atMost(Duration.ofMillis(Math.max(left, 20)))
                    .pollInterval(Duration.ofMillis(5)).until(() -> capturing(log, errs));
            if (left >= 20) {
                return run;
            }
        } catch (ConditionTimeoutException late) {
            // started too late in the second: start over
        }
        run.stop();
        for (Future<Integer> exit : exits) {
            exit.get(30, TimeUnit.SECONDS);
        }
        iftop.waitFor(10, TimeUnit.SECONDS);
        return null;
    }

    private static boolean capturing(Path iftopLog, List<StringWriter> agentErrs) throws java.io.IOException {
        return Files.readString(iftopLog).contains("Listening on " + NetnsLab.IF_A)
                && agentErrs.stream().allMatch(w -> w.toString().contains("capturing on " + NetnsLab.IF_A));
    }

    private static IftopText.Report single(String out, String err) {
        List<IftopText.Report> reports = IftopText.reports(out);
        assertThat(reports).as("the agent's report; its standard error: %s", err).hasSize(1);
        return reports.get(0);
    }

    private static void compare(int at, IftopText.Report iftop, IftopText.Report ours) {
        assertThat(ours.pairs().keySet()).as("pairs at %d s", at).isEqualTo(iftop.pairs().keySet());
        Map<String, List<IftopText.Printed>> lines = new LinkedHashMap<>(iftop.pairs());
        lines.putAll(iftop.totals());
        Map<String, List<IftopText.Printed>> oursLines = new LinkedHashMap<>(ours.pairs());
        oursLines.putAll(ours.totals());
        assertThat(oursLines.keySet()).as("lines at %d s", at).isEqualTo(lines.keySet());
        lines.forEach((line, theirs) -> {
            List<IftopText.Printed> mine = oursLines.get(line);
            for (int c = 0; c < theirs.size(); c++) {
                assertThat(mine.get(c).agrees(theirs.get(c)))
                        .as("%s at %d s, column %d: agent %s, iftop %s (agent %s, iftop %s)", line, at, c + 1,
                                mine.get(c), theirs.get(c), mine, theirs).isTrue();
            }
        });
    }
}
