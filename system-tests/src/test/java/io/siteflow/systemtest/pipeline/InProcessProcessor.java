package io.siteflow.systemtest.pipeline;

import io.siteflow.processor.app.ProcessCommand;
import io.siteflow.processor.app.ProcessorRuntime;
import io.siteflow.processor.query.StoreView;
import io.siteflow.processor.query.StreamsQueries;
import io.siteflow.processor.topology.ActiveModel;
import io.siteflow.rules.model.SiteModel;
import io.siteflow.rules.verdict.AuditPair;
import io.siteflow.rules.verdict.AuditPairs;
import io.siteflow.rules.verdict.PairAggregateJson;
import io.siteflow.rules.verdict.Verdict;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.KafkaStreams;
import org.awaitility.Awaitility;

/**
 * {@code siteflow process} run in this JVM on its own thread, exactly as the command line starts it
 * ({@link ProcessCommand}), with its own state directory. {@link #close()} stops it as SIGTERM would.
 */
public final class InProcessProcessor implements AutoCloseable {
    private final ProcessCommand command = new ProcessCommand();
    private final CompletableFuture<Integer> exit;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private InProcessProcessor(String... args) {
        var cl = ProcessCommand.commandLine(command);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        exit = CompletableFuture.supplyAsync(() -> cl.execute(args), r -> {
            Thread th = new Thread(r, "siteflow-process-" + args.length);
            th.setDaemon(true);
            th.start();
        });
    }

    /** Starts {@code siteflow process} with application id {@code appId} and waits until Streams is RUNNING. */
    public static InProcessProcessor start(String bootstrap, Path sites, Path stateDir, String appId, String... more) {
        List<String> args = new ArrayList<>(List.of("--bootstrap", bootstrap, "--sites", sites.toString(),
                "--state-dir", stateDir.toString(), "--application-id", appId, "--kafka", "commit.interval.ms=100",
                "--http-port", "0"));
        args.addAll(List.of(more));
        InProcessProcessor p = new InProcessProcessor(args.toArray(String[]::new));
        p.awaitRunning();
        return p;
    }

    void awaitRunning() {
        Awaitility.await().atMost(Duration.ofSeconds(90)).until(() -> {
            if (exit.isDone()) {
                throw new AssertionError("siteflow process exited " + exit.get() + ": " + err);
            }
            return command.runtime().map(rt -> rt.streams().state() == KafkaStreams.State.RUNNING).orElse(false);
        });
    }

    public ProcessorRuntime runtime() {
        return command.runtime().orElseThrow();
    }

    public KafkaStreams.State state() {
        return runtime().streams().state();
    }

    /** The cumulative verdicts as {@code GET /api/verdicts} gives them (this instance answering for all). */
    public List<Verdict> cumulativeVerdicts() {
        return runtime().queries().cumulativeVerdicts();
    }

    /** The site comparison as {@code GET /api/dbsites} gives it, in its JSON. */
    String dbSitesJson() {
        return io.siteflow.processor.http.ApiJson.write(runtime().queries().dbSites());
    }

    /**
     * The cumulative verdicts of the pairs whose aggregate this instance holds in its own stores, computed as
     * {@link StreamsQueries#cumulative} does; pairs it does not hold are left out.
     */
    List<Verdict> localCumulativeVerdicts(SiteModel model, String yaml) {
        ActiveModel m = ActiveModel.of(model, yaml, 0);
        StoreView local = runtime().queries().local();
        List<Verdict> out = new ArrayList<>();
        for (AuditPair p : AuditPairs.of(model)) {
            Optional<String> agg = local.cumulative(ActiveModel.pairKey(p), StoreView.ANY_PARTITION);
            agg.ifPresent(json -> out.add(StreamsQueries.cumulative(m, p, parse(json),
                    local.observerDrops(p.server().address(), StoreView.ANY_PARTITION))));
        }
        return out;
    }

    private static io.siteflow.rules.verdict.PairAggregate parse(String json) {
        try {
            return PairAggregateJson.parse(json.getBytes(StandardCharsets.UTF_8));
        } catch (io.siteflow.rules.verdict.VerdictFormatException e) {
            throw new AssertionError(e);
        }
    }

    public String err() {
        return err.toString();
    }

    /** Stops as SIGTERM would and returns the exit code. */
    public int stop() throws Exception {
        command.stop();
        return exit.get(60, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws Exception {
        if (!exit.isDone()) {
            stop();
        }
    }
}
