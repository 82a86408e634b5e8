package io.siteflow.processor.topology;

/**
 * What the audit step emits: a record for {@code siteflow.verdicts} or {@code siteflow.alerts}. Immutable.
 *
 * @param topic the topic it goes to
 * @param key   the record key
 * @param json  the record value
 */
record Output(String topic, String key, String json) {
}
