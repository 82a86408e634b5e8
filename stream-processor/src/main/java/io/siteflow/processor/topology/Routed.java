package io.siteflow.processor.topology;

import io.siteflow.model.FlowRecord;
import io.siteflow.rules.classify.Classification;
import io.siteflow.rules.verdict.AuditSide;

/**
 * A record on its way to the audit of the server its key names, with what the route step computed for it, so
 * that the audit step does not classify it again. That part travels only in memory, on the {@code here} path; a
 * record that crossed the {@code by-server} topic arrives without it ({@link #moved}) and the audit step
 * computes it there, as it does when the model in force changed in between.
 *
 * @param side           the audited pair and side it was routed for; null for a {@link #moved} record
 * @param classification its classification under {@code model}; null for a {@link #moved} record
 * @param model          the model in force when it was routed; null for a {@link #moved} record
 */
record Routed(FlowRecord record, AuditSide side, Classification classification, ActiveModel model) {

    /** A record read from the {@code by-server} topic: the route step's results did not travel with it. */
    static Routed moved(FlowRecord record) {
        return new Routed(record, null, null, null);
    }

    /** True when the route step's results hold under {@code m} (computed under that same model). */
    boolean routedUnder(ActiveModel m) {
        return model == m;
    }
}
