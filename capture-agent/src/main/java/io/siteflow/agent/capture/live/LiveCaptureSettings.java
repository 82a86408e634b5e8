package io.siteflow.agent.capture.live;

import static io.siteflow.agent.capture.live.LiveCaptureLimits.DEFAULT_BUFFER_MB;
import static io.siteflow.agent.capture.live.LiveCaptureLimits.DEFAULT_SNAPLEN;
import static io.siteflow.agent.capture.live.LiveCaptureLimits.DEFAULT_TIMEOUT_MILLIS;
import static io.siteflow.agent.capture.live.LiveCaptureLimits.MAX_BUFFER_BYTES;
import static io.siteflow.agent.capture.live.LiveCaptureLimits.MAX_SNAPLEN;
import static io.siteflow.agent.capture.live.LiveCaptureLimits.MIN_BUFFER_BYTES;
import static io.siteflow.agent.capture.live.LiveCaptureLimits.MIN_SNAPLEN;

/**
 * Validated settings of a live capture (see {@link LiveCapture.Builder} for meanings; defaults and ranges:
 * {@link LiveCaptureLimits}).
 *
 * @param iface         interface name
 * @param snaplen       bytes kept per packet
 * @param bufferBytes   kernel ring buffer size, bytes
 * @param timeoutMillis ring block timeout, milliseconds
 * @param promiscuous   promiscuous mode
 * @param bpfFilter     filter expression, empty for none
 */
record LiveCaptureSettings(String iface, int snaplen, int bufferBytes, int timeoutMillis, boolean promiscuous,
                           String bpfFilter) {
    LiveCaptureSettings {
        if (iface.isBlank()) {
            throw new IllegalArgumentException("interface name is empty");
        }
        if (snaplen < MIN_SNAPLEN || snaplen > MAX_SNAPLEN) {
            throw new IllegalArgumentException("snaplen " + snaplen + " is out of range (" + MIN_SNAPLEN + "-"
                    + MAX_SNAPLEN + ")");
        }
        if (bufferBytes < MIN_BUFFER_BYTES || bufferBytes > MAX_BUFFER_BYTES) {
            throw new IllegalArgumentException("buffer of " + bufferBytes + " bytes is out of range ("
                    + MIN_BUFFER_BYTES + "-" + MAX_BUFFER_BYTES + ")");
        }
        if (timeoutMillis < 1) {
            throw new IllegalArgumentException("timeout " + timeoutMillis + " ms is out of range (at least 1)");
        }
    }

    /** The builder's working copy, defaults filled in. */
    static final class Mutable {
        final String iface;
        int snaplen = DEFAULT_SNAPLEN;
        int bufferBytes = DEFAULT_BUFFER_MB << 20;
        int timeoutMillis = DEFAULT_TIMEOUT_MILLIS;
        boolean promiscuous;
        String bpfFilter = "";

        Mutable(String iface) {
            this.iface = iface;
        }

        LiveCaptureSettings freeze() {
            return new LiveCaptureSettings(iface, snaplen, bufferBytes, timeoutMillis, promiscuous, bpfFilter);
        }
    }
}
