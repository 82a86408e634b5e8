package io.siteflow.synth;

/** What a synthetic conversation is, in the categories of DESIGN.md (the classifier's names). */
public enum TrafficCategory {
    /** JDBC over Oracle Net (TNS) to the database. */
    DB,
    /** WebLogic T3 between cluster members (RMI, session replication, heartbeats). */
    CLUSTER,
    /** JMS over T3. */
    JMS,
    /** Coherence TCMP (UDP) and TMB (TCP). */
    COHERENCE,
    /** Administration: Node Manager and the admin server's port. */
    ADMIN,
    /** Anything else (DNS). */
    OTHER
}
