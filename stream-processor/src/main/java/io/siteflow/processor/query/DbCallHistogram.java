package io.siteflow.processor.query;

import io.siteflow.model.CallHistogram;

/**
 * The DB call times of one audited pair since the processor started (its cumulative aggregate): the fixed buckets
 * of flow-model/docs/contracts.md with their counts. Immutable.
 *
 * @param server     the audited server's address
 * @param remoteSite the remote site
 * @param histogram  the call times; empty without calls
 */
public record DbCallHistogram(String server, String remoteSite, CallHistogram histogram) {
}
