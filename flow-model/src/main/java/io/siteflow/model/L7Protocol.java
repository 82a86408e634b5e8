package io.siteflow.model;

import java.util.Locale;

/**
 * Application protocols the capture agent recognises from the first payload bytes of a flow.
 * The {@link #wireName()} is what the flow record carries in {@code l7}; {@link #UNKNOWN} is never
 * written for a record without a detected protocol (the field is absent instead). A closed set: a name a newer
 * agent writes that this version does not list reads as {@link #UNKNOWN}, and {@link FlowRecord#l7Text()} keeps
 * the name itself so that it is written back unchanged.
 */
public enum L7Protocol {
    ORACLE_TNS("oracle-tns"),
    T3("t3"),
    /** WebLogic T3 whose first messages name {@code weblogic.jms.} classes. */
    T3_JMS("t3-jms"),
    GIOP("giop"),
    COHERENCE_TCMP("coherence-tcmp"),
    COHERENCE_TMB("coherence-tmb"),
    HTTP("http"),
    TLS("tls"),
    POSTGRESQL("postgresql"),
    MYSQL("mysql"),
    UNKNOWN("unknown");

    private static final L7Protocol[] VALUES = values();
    private final String wireName;

    L7Protocol(String wireName) {
        this.wireName = wireName;
    }

    /** The lower-case name used in flow records, rules and the CLI, e.g. {@code oracle-tns}. */
    public String wireName() {
        return wireName;
    }

    /** Looks a wire name up, case-insensitively; unknown names give {@link #UNKNOWN}, never null. */
    public static L7Protocol fromWireName(String name) {
        if (name == null) {
            return UNKNOWN;
        }
        String n = name.toLowerCase(Locale.ROOT);
        for (L7Protocol p : VALUES) {
            if (p.wireName.equals(n)) {
                return p;
            }
        }
        return UNKNOWN;
    }
}
