package io.siteflow.rules.verdict;

/** The result of an audit for one server, remote site and window. */
public enum Outcome {
    /** DB share at or above the threshold. */
    PASS,
    /** DB share below the threshold. */
    FAIL,
    /** Too little cross-site traffic, or the observer dropped too many packets, to say. */
    INSUFFICIENT
}
