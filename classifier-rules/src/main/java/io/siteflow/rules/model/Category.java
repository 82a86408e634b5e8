package io.siteflow.rules.model;

import java.util.Locale;

/**
 * What a flow is for, as far as the audit is concerned. {@link #UNKNOWN} is what a flow that matches no rule
 * gets; a rule may also name it explicitly.
 */
public enum Category {
    DB, CLUSTER, JMS, COHERENCE, FRONTEND, ADMIN, OTHER, UNKNOWN;

    private static final Category[] VALUES = values();

    /** All categories in declaration order (shared array: do not modify). */
    public static Category[] all() {
        return VALUES;
    }

    /** Case-insensitive lookup; {@link #UNKNOWN} for anything that is not a category name. */
    public static Category parse(String name) {
        for (Category c : VALUES) {
            if (c.name().equals(name.toUpperCase(Locale.ROOT))) {
                return c;
            }
        }
        return UNKNOWN;
    }

    /** True when {@code name} (case-insensitive) names a category. */
    public static boolean isName(String name) {
        for (Category c : VALUES) {
            if (c.name().equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }
}
