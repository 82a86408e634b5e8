package io.siteflow.model;

import java.util.Objects;

/**
 * The DB calls of a flow record's delta (flow-model/docs/contracts.md "DB calls in the record"): only on flows
 * detected as {@code oracle-tns}, {@code postgresql} or {@code mysql}, {@link #NONE} elsewhere. Immutable.
 *
 * @param calls     calls whose first response segment fell in this record; a call is one run of initiator payload
 *                  followed by a run of responder payload
 * @param micros    sum of those calls' times in µs, each from the last request segment to the first response
 *                  segment as seen at the capture point
 * @param histogram those calls' times over the fixed {@link CallHistogram} buckets, never null
 *                  ({@link CallHistogram#EMPTY} without calls); the codecs check that its total is {@code calls}
 * @throws NullPointerException when {@code histogram} is null
 */
public record DbCalls(long calls, long micros, CallHistogram histogram) {
    /** No calls. */
    public static final DbCalls NONE = new DbCalls(0, 0, CallHistogram.EMPTY);

    public DbCalls {
        Objects.requireNonNull(histogram, "dbCallHistogram");
    }
}
