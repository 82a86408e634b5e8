package io.siteflow.processor.query;

/**
 * How alerts are raised, for the dashboard: the {@code NEW_PEER} baseline and the repeat interval of {@code FAIL}
 * and {@code RTT} alerts ({@code siteflow process --baseline}, {@code --alert-repeat}). Immutable.
 *
 * @param baselineMs    how long (event time) cross-site peers are learnt without alerts, from a task's first record
 * @param baselineEndMs when the last baseline of the cluster's tasks ends (event time, epoch ms); -1 before any
 *                      task has seen a record
 * @param repeatMs      how often an alert is raised again while its pair stays FAIL (or above the RTT limit)
 */
public record AlertSettings(long baselineMs, long baselineEndMs, long repeatMs) {
}
