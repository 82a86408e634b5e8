package io.siteflow.processor.topology;

import io.siteflow.model.FlowRecord;

/**
 * A record on its way to the audit of the server its key names.
 *
 * @param here true when the task that routed it also audits that server (see {@link RouteStep}), so the record
 *             skips the {@code by-server} topic
 */
record Routed(FlowRecord record, boolean here) {
}
