package io.siteflow.rules.verdict;

/**
 * What flow exporters reported for a pair whose observer is another (the server's host agent, or the first exporter
 * when two routers on the path export the same traffic): their records are compared with the observer's, never
 * added (classifier-rules {@code observer.ObserverRule}, docs/RULES.md "One
 * observer per server"). Immutable.
 *
 * @param bytes      IP bytes, both directions, of the exporters' records of the pair that did not count
 * @param difference the verdict's {@code crossBytes} (what the observer counted) minus {@code bytes}: positive when
 *                   the exporters saw less than the host agent, negative when more
 */
public record ExporterComparison(long bytes, long difference) {
}
