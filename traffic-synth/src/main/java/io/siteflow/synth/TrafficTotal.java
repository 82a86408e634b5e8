package io.siteflow.synth;

/**
 * Ground truth for one (local server, remote address, category): IP bytes and packets of both directions
 * as the capture holds them. Addresses are text ({@code 10.2.0.20}).
 */
public record TrafficTotal(String server, String remote, TrafficCategory category, long bytes, long packets) {
}
