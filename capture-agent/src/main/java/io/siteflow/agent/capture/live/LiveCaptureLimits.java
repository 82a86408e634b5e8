package io.siteflow.agent.capture.live;

/**
 * The defaults and ranges of a live capture's settings, in one place: {@link LiveCapture.Builder} validates with
 * them, and the command line ({@code CaptureOptionsBuilder}, {@code --snaplen}, {@code --buffer-mb}) takes its
 * defaults, ranges and help text from them. Constants only.
 */
public final class LiveCaptureLimits {
    /** Bytes kept of each packet: headers plus the first payload bytes the signatures read. */
    public static final int DEFAULT_SNAPLEN = 256;
    /** Least snaplen: Ethernet, VLAN tags, an IPv6 header and a TCP header. */
    public static final int MIN_SNAPLEN = 64;
    /** Largest snaplen: libpcap's own maximum. */
    public static final int MAX_SNAPLEN = 262_144;
    /** Kernel ring buffer, MiB. */
    public static final int DEFAULT_BUFFER_MB = 64;
    /** Least kernel ring buffer, bytes (the command line counts in MiB, so its least is 1 MiB). */
    public static final int MIN_BUFFER_BYTES = 65_536;
    /** Least kernel ring buffer in whole MiB, as the command line counts: {@link #MIN_BUFFER_BYTES} rounded up. */
    public static final int MIN_BUFFER_MB = (MIN_BUFFER_BYTES + (1 << 20) - 1) >> 20;
    /** Largest kernel ring buffer, MiB: the largest whole number of MiB whose bytes fit an {@code int}. */
    public static final int MAX_BUFFER_MB = 2047;
    /** Largest kernel ring buffer, bytes. */
    public static final int MAX_BUFFER_BYTES = MAX_BUFFER_MB << 20;
    /** Ring block timeout, milliseconds. */
    public static final int DEFAULT_TIMEOUT_MILLIS = 250;

    private LiveCaptureLimits() {
    }
}
