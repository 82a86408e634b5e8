package io.siteflow.processor.topology;

import io.siteflow.model.FlowRecord;
import io.siteflow.rules.model.Flow;

/**
 * A readable value of {@code siteflow.flows} ({@link ParseStep}): the record and its {@link Flow} (both addresses
 * parsed), built once for the dedupe and route steps. Immutable.
 */
record Parsed(FlowRecord record, Flow flow) {
}
