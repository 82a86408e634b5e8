package io.siteflow.processor.query;

/**
 * The site model in force.
 *
 * @param version  rule-set version, {@code sha256:...}
 * @param yaml     the model as published on {@code siteflow.sites}
 * @param loadedMs when this instance started using it, epoch ms
 */
public record RulesInfo(String version, String yaml, long loadedMs) {
}
