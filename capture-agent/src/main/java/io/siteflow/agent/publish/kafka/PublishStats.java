package io.siteflow.agent.publish.kafka;

/**
 * Counters of a {@link KafkaFlowSink} at one moment (all since the sink was created).
 *
 * @param accepted     records handed to {@code accept}
 * @param sent         records the broker acknowledged (directly or replayed from the spool)
 * @param spooled      records written to the disk spool because they could not be delivered
 * @param replayed     spooled records delivered later (included in {@code sent})
 * @param dropped      records lost: the hand-off queue or the spool was full, or the spool could not be written
 * @param rejected     records the broker refused for good (too large, not serializable); not retried
 * @param spoolRecords records waiting in the spool now
 * @param spoolBytes   size of the spool files now
 * @param queued       records in the hand-off queue now
 * @param outage       true while records go to the spool instead of Kafka
 */
public record PublishStats(long accepted, long sent, long spooled, long replayed, long dropped, long rejected,
        long spoolRecords, long spoolBytes, int queued, boolean outage) {
}
