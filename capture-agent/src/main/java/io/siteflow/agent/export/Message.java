package io.siteflow.agent.export;

/** The datagram being decoded; reused. */
final class Message {
    ExporterState exporter;
    String what;
    int version;
    long domain;
    /** v9: epoch ms of the exporter's boot (export time - sysUptime); -1 otherwise. */
    long uptimeBaseMs;
    long nowMs;
    long dataRecords;
    boolean recordsCounted;

    Message reset(ExporterState exporter, String what, int version, long domain, long uptimeBaseMs, long nowMs) {
        this.exporter = exporter;
        this.what = what;
        this.version = version;
        this.domain = domain;
        this.uptimeBaseMs = uptimeBaseMs;
        this.nowMs = nowMs;
        this.dataRecords = 0;
        this.recordsCounted = true;
        return this;
    }

    /** "exporter 192.0.2.1: IPFIX domain 7: ", built only for a message about a fault. */
    String prefix() {
        return "exporter " + exporter.address + ": " + what + domain + ": ";
    }
}
