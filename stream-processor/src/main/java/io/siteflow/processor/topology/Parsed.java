package io.siteflow.processor.topology;

import io.siteflow.model.FlowRecord;
import io.siteflow.rules.model.Flow;

/** What reading one value of {@code siteflow.flows} gave: a record, or a dead letter. Immutable. */
sealed interface Parsed permits Parsed.Ok, Parsed.Bad {

    /**
     * A readable record.
     *
     * @param flow the record's {@link Flow} (both addresses parsed), built once here for the steps after
     */
    record Ok(FlowRecord record, Flow flow) implements Parsed {
    }

    /** An unreadable value, as the JSON written to {@code siteflow.dlq}. */
    record Bad(String deadLetterJson) implements Parsed {
    }
}
