package io.siteflow.rules.model;

/** Which built-in rule set follows the user's rules ({@code defaults:} in {@code sites.yaml}). */
public enum DefaultRules {
    /** The Oracle Fusion Middleware rules of {@code fmw-defaults.yaml}. */
    FMW,
    /** No built-in rules: flows that match no user rule are UNKNOWN. */
    NONE
}
