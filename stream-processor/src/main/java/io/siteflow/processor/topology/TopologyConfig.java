package io.siteflow.processor.topology;

import io.siteflow.rules.verdict.Window;
import java.time.Duration;
import java.util.Objects;

/**
 * The settings of the Streams topology, validated once. Immutable.
 *
 * @param applicationId    Kafka Streams application id (consumer group, changelog and repartition topic prefix)
 * @param window           size of the tumbling verdict windows (event time, record {@code start})
 * @param grace            how long after a window's end a record may still arrive; later ones are late
 * @param dedupeRetention  how long a record id is remembered to drop a re-sent record
 * @param historyRetention how long closed-window verdicts and alerts are kept for reports
 * @param baseline         event time from the first record during which cross-site peers are learnt
 *                         silently; a peer first seen after it raises a {@code NEW_PEER} alert
 * @param alertRepeat      how often a FAIL or RTT alert is raised again while its pair stays in that state (an alert
 *                         is raised when the state starts; event time)
 * @param partitions       partitions of the {@code by-server} topic: those of {@code siteflow.flows}, so that a
 *                         record already in its server's partition is audited where it is read
 */
public record TopologyConfig(String applicationId, Duration window, Duration grace, Duration dedupeRetention,
                             Duration historyRetention, Duration baseline, Duration alertRepeat, int partitions) {
    public static final String DEFAULT_APPLICATION_ID = "siteflow-processor";
    /**
     * The default window as an option value ({@code 60s}): the offline audit's, {@link Window#DEFAULT_SIZE_MS}, which
     * owns it. A constant, so that picocli's {@code defaultValue} and help ({@code ${DEFAULT-VALUE}}) can show it.
     */
    public static final String DEFAULT_WINDOW = Window.DEFAULT_SIZE_MS / 1000 + "s";

    /**
     * Defaults: {@link Window#DEFAULT_SIZE_MS} windows, 10 s grace, 1 day dedupe, 30 days history, 1 h baseline and
     * alert repeat, 1 partition.
     */
    public static final TopologyConfig DEFAULTS = new TopologyConfig(DEFAULT_APPLICATION_ID,
            Duration.ofMillis(Window.DEFAULT_SIZE_MS),
            Duration.ofSeconds(10), Duration.ofDays(1), Duration.ofDays(30), Duration.ofHours(1), Duration.ofHours(1),
            1);

    public TopologyConfig {
        Objects.requireNonNull(applicationId, "applicationId");
        if (applicationId.isBlank()) {
            throw new IllegalArgumentException("application id must not be blank");
        }
        positive(window, "window");
        notNegative(grace, "grace");
        positive(dedupeRetention, "dedupe retention");
        positive(baseline, "baseline");
        positive(alertRepeat, "alert repeat");
        positive(historyRetention, "history retention");
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be at least 1, got " + partitions);
        }
        if (historyRetention.compareTo(window) < 0) {
            throw new IllegalArgumentException("history retention " + historyRetention + " is shorter than the window "
                    + window);
        }
    }

    public TopologyConfig withApplicationId(String id) {
        return new TopologyConfig(id, window, grace,
                dedupeRetention, historyRetention, baseline, alertRepeat, partitions);
    }

    public TopologyConfig withWindow(Duration w, Duration g) {
        return new TopologyConfig(applicationId, w, g,
                dedupeRetention, historyRetention, baseline, alertRepeat, partitions);
    }

    public TopologyConfig withBaseline(Duration b) {
        return new TopologyConfig(applicationId, window, grace,
                dedupeRetention, historyRetention, b, alertRepeat, partitions);
    }

    public TopologyConfig withAlertRepeat(Duration r) {
        return new TopologyConfig(applicationId, window, grace,
                dedupeRetention, historyRetention, baseline, r, partitions);
    }

    public TopologyConfig withHistoryRetention(Duration h) {
        return new TopologyConfig(applicationId, window, grace,
                dedupeRetention, h, baseline, alertRepeat, partitions);
    }

    public TopologyConfig withPartitions(int p) {
        return new TopologyConfig(applicationId, window, grace,
                dedupeRetention, historyRetention, baseline, alertRepeat, p);
    }

    private static void positive(Duration d, String what) {
        Objects.requireNonNull(d, what);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(what + " must be positive, got " + d);
        }
    }

    private static void notNegative(Duration d, String what) {
        Objects.requireNonNull(d, what);
        if (d.isNegative()) {
            throw new IllegalArgumentException(what + " must not be negative, got " + d);
        }
    }
}
