package io.siteflow.rules.importer;

/** A database listener as a URL names it: host (name or address, as written) and TCP port. Immutable. */
public record Endpoint(String host, int port) {
    @Override
    public String toString() {
        return host + ":" + port;
    }
}
