package io.siteflow.processor.topology;

/**
 * One alert (topic {@code siteflow.alerts}).
 *
 * @param type    {@code FAIL}, {@code RTT}, {@code CLEARED} (a FAIL or RTT state ended) or {@code NEW_PEER}
 * @param key     server or site pair it concerns
 * @param timeMs  event time, epoch ms
 * @param message one sentence for people
 */
public record Alert(String type, String key, long timeMs, String message) {
}
