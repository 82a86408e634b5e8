package io.siteflow.processor.http;

import java.util.Objects;

/**
 * Where another stream-processor instance answers its HTTP API (Kafka Streams' {@code HostInfo} of that
 * instance, i.e. its {@code application.server} = {@code --advertised-host}:{@code --http-port}). Immutable.
 */
public record Endpoint(String host, int port) {
    public Endpoint {
        Objects.requireNonNull(host, "host");
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port must be 1-65535: " + port);
        }
    }

    /** {@code http://host:port} (IPv6 literals in brackets). */
    public String baseUrl() {
        return "http://" + (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
