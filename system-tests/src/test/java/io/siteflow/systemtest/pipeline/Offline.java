package io.siteflow.systemtest.pipeline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.FlowRecordFormatException;
import io.siteflow.model.FlowRecordJson;
import io.siteflow.rules.audit.AuditReport;
import io.siteflow.rules.audit.OfflineAudit;
import io.siteflow.rules.load.SiteModelException;
import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.rules.model.SiteModel;
import io.siteflow.rules.verdict.Verdict;
import io.siteflow.rules.verdict.VerdictJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/** The reference: what the offline audit ({@link OfflineAudit}, as {@code siteflow audit}) says about records. */
public final class Offline {
    /** Window start, then server: the order verdict lists are compared in. */
    static final Comparator<Verdict> ORDER = Comparator
            .comparingLong((Verdict v) -> v.window().map(w -> w.start()).orElse(0L))
            .thenComparing(Verdict::server).thenComparing(Verdict::remoteSite);

    private static final ObjectMapper JSON = new ObjectMapper();

    private Offline() {
    }

    /** The offline report over {@code records} with the site model {@code yaml} and windows of {@code windowMs}. */
    public static AuditReport audit(String yaml, Collection<FlowRecord> records, long windowMs) {
        OfflineAudit audit = new OfflineAudit(model(yaml), windowMs);
        records.forEach(audit::accept);
        return audit.report("records", 0, 0);
    }

    /** The window verdicts of windows before the one holding {@code closeAt} (those the stream has closed). */
    static List<Verdict> closedBefore(AuditReport report, long closeAt) {
        long open = io.siteflow.rules.verdict.Window.of(closeAt, 60_000).start();
        return report.windows().stream().filter(v -> v.window().orElseThrow().start() < open).toList();
    }

    public static SiteModel model(String yaml) {
        try {
            return SiteModelLoader.parse("sites.yaml", yaml).orThrow();
        } catch (SiteModelException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** The verdicts in {@link #ORDER}. */
    static List<Verdict> sorted(Collection<Verdict> verdicts) {
        return verdicts.stream().sorted(ORDER).toList();
    }

    /** The verdicts as their JSON lines (DESIGN.md verdict JSON), in {@link #ORDER}. */
    public static List<String> json(Collection<Verdict> verdicts) {
        return verdicts.stream().sorted(ORDER).map(VerdictJson::toJson).toList();
    }

    /** The verdicts as JSON trees (DESIGN.md verdict JSON), in their order. */
    public static List<JsonNode> nodes(List<Verdict> verdicts) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (Verdict v : verdicts) {
            out.add(JSON.readTree(VerdictJson.toJson(v)));
        }
        return out;
    }

    /** The elements of a JSON array, e.g. the {@code verdicts} of {@code siteflow audit --format json}. */
    public static List<JsonNode> list(JsonNode array) {
        List<JsonNode> out = new ArrayList<>();
        array.forEach(out::add);
        return out;
    }

    /** The flow records of a JSON-lines file, as {@code siteflow capture --json FILE} writes them. */
    public static List<FlowRecord> records(Path jsonLines) throws IOException, FlowRecordFormatException {
        List<FlowRecord> out = new ArrayList<>();
        for (String line : Files.readAllLines(jsonLines, StandardCharsets.UTF_8)) {
            if (!line.isBlank()) {
                out.add(FlowRecordJson.parse(line.getBytes(StandardCharsets.UTF_8)));
            }
        }
        return out;
    }
}
