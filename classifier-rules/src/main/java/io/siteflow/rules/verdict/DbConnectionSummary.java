package io.siteflow.rules.verdict;

/**
 * Concurrent DB connections of a server towards a remote site, per minute (see {@link DbConnections}).
 *
 * @param median lower median over the minutes
 * @param max    largest per-minute count
 */
public record DbConnectionSummary(long median, long max) {
    public static final DbConnectionSummary NONE = new DbConnectionSummary(0, 0);
}
