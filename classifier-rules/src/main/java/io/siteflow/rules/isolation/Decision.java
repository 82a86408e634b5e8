package io.siteflow.rules.isolation;

/** What an isolation policy says of one flow (docs/RULES.md, "Isolation policy"). */
public enum Decision {
    /** An allow rule matched (and no deny rule did). */
    ALLOWED,
    /** A deny rule matched: always a violation. */
    DENIED,
    /** No rule matched: a violation under {@code default: deny}. */
    UNLISTED
}
