package io.siteflow.processor.topology;

import io.siteflow.model.FlowRecord;

/** What reading one value of {@code siteflow.flows} gave: a record, or a dead letter. Immutable. */
sealed interface Parsed permits Parsed.Ok, Parsed.Bad {

    /** A readable record. */
    record Ok(FlowRecord record) implements Parsed {
    }

    /** An unreadable value, as the JSON written to {@code siteflow.dlq}. */
    record Bad(String deadLetterJson) implements Parsed {
    }
}
