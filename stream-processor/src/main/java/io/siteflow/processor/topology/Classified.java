package io.siteflow.processor.topology;

import io.siteflow.model.FlowRecord;
import io.siteflow.rules.classify.Classification;
import io.siteflow.rules.model.Flow;
import java.util.Objects;

/**
 * A record of {@code siteflow.flows} as the stages after classification get it ({@link ClassifiedStage}): read,
 * not a repeat, classified once with the site model in force. On the stream it carries the record's original
 * key bytes (the agent's key) and its event time ({@code start}) as its timestamp. Immutable.
 *
 * @param record         the flow record as read
 * @param flow           its classifier view (both addresses parsed)
 * @param classification what the model in force made of it; never null ({@code UNKNOWN} when no rule matched)
 * @param model          the model in force it was classified with (its isolation policy, sites and hosts)
 */
public record Classified(FlowRecord record, Flow flow, Classification classification, ActiveModel model) {
    public Classified {
        Objects.requireNonNull(record, "record");
        Objects.requireNonNull(flow, "flow");
        Objects.requireNonNull(classification, "classification");
        Objects.requireNonNull(model, "model");
    }
}
