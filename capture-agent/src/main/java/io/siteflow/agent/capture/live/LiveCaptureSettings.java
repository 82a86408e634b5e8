package io.siteflow.agent.capture.live;

/**
 * Validated settings of a live capture (see {@link LiveCapture.Builder} for meanings and defaults).
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
    static final int DEFAULT_SNAPLEN = 256;
    static final int DEFAULT_BUFFER_BYTES = 64 << 20;
    static final int DEFAULT_TIMEOUT_MILLIS = 250;
    static final int MAX_SNAPLEN = 262_144;
    static final int MIN_BUFFER_BYTES = 65_536;

    LiveCaptureSettings {
        if (iface.isBlank()) {
            throw new IllegalArgumentException("interface name is empty");
        }
        if (snaplen < 1 || snaplen > MAX_SNAPLEN) {
            throw new IllegalArgumentException("snaplen " + snaplen + " is out of range (1-" + MAX_SNAPLEN + ")");
        }
        if (bufferBytes < MIN_BUFFER_BYTES) {
            throw new IllegalArgumentException("buffer of " + bufferBytes + " bytes is too small (at least "
                    + MIN_BUFFER_BYTES + ")");
        }
        if (timeoutMillis < 1) {
            throw new IllegalArgumentException("timeout " + timeoutMillis + " ms is out of range (at least 1)");
        }
    }

    /** The builder's working copy, defaults filled in. */
    static final class Mutable {
        final String iface;
        int snaplen = DEFAULT_SNAPLEN;
        int bufferBytes = DEFAULT_BUFFER_BYTES;
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
