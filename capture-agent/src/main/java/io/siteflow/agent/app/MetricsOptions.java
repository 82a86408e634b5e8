package io.siteflow.agent.app;

import io.siteflow.agent.config.CaptureOptionsBuilder;
import picocli.CommandLine.Option;

/** The Prometheus endpoint of {@code capture} and {@code collect}: one picocli mixin for both. */
public final class MetricsOptions {

    @Option(names = "--metrics-port", paramLabel = "PORT",
            description = "Serve Prometheus metrics on http://ADDRESS:PORT/metrics (ADDRESS: --metrics-bind).")
    Integer metricsPort;

    @Option(names = "--metrics-bind", paramLabel = "ADDRESS", defaultValue = CaptureOptionsBuilder.DEFAULT_METRICS_BIND,
            description = "The address the metrics endpoint listens on: an IP address of this host, or 0.0.0.0 "
                    + "for all, so that a central Prometheus can scrape it. Default: ${DEFAULT-VALUE} (this host only).")
    String metricsBind;

    /** Sets the metrics options on {@code b}; returns it. */
    CaptureOptionsBuilder applyTo(CaptureOptionsBuilder b) {
        return b.metricsPort(metricsPort).metricsBind(metricsBind);
    }
}
