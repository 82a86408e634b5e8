package io.siteflow.agent.capture.file;

/**
 * Converts a pcapng interface's 64-bit timestamps to nanoseconds since the epoch: {@code if_tsresol}
 * (units of 10^-k or 2^-n seconds; default microseconds) plus {@code if_tsoffset} (seconds). Timestamps
 * are read as unsigned; results beyond the range of a long (after the year 2262) saturate at
 * {@link Long#MAX_VALUE}. Immutable; thread-safe.
 */
final class TimestampScale {
    static final TimestampScale MICROS = of(6, 0);
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long MAX_SECONDS = Long.MAX_VALUE / NANOS_PER_SECOND;

    /** Multiply by this (decimal, exponent ≤ 9), or 0. */
    private final long multiplier;
    /** Divide by this (decimal, exponent > 9), or 0. */
    private final long divisor;
    /** Binary exponent n for units of 2^-n seconds, or -1. */
    private final int binaryExponent;
    private final long offsetNanos;

    private TimestampScale(long multiplier, long divisor, int binaryExponent, long offsetNanos) {
        this.multiplier = multiplier;
        this.divisor = divisor;
        this.binaryExponent = binaryExponent;
        this.offsetNanos = offsetNanos;
    }

    /**
     * @param tsresol       the {@code if_tsresol} byte: bit 7 clear = 10^-value, set = 2^-(value & 0x7f);
     *                      exponents beyond 19 (decimal) or 63 (binary) are clamped there
     * @param offsetSeconds the {@code if_tsoffset} value
     */
    static TimestampScale of(int tsresol, long offsetSeconds) {
        long offsetNanos = saturatingMultiply(offsetSeconds, NANOS_PER_SECOND);
        int exponent = tsresol & 0x7F;
        if ((tsresol & 0x80) != 0) {
            return new TimestampScale(0, 0, Math.min(exponent, 63), offsetNanos);
        }
        exponent = Math.min(exponent, 19);
        if (exponent <= 9) {
            return new TimestampScale(pow10(9 - exponent), 0, -1, offsetNanos);
        }
        return new TimestampScale(0, pow10(exponent - 9), -1, offsetNanos);
    }

    /** Nanoseconds since the epoch for {@code units} (an unsigned 64-bit count of this interface's units). */
    long toNanos(long units) {
        long nanos;
        if (multiplier != 0) {
            nanos = units >= 0 && units <= Long.MAX_VALUE / multiplier ? units * multiplier : Long.MAX_VALUE;
        } else if (divisor != 0) {
            nanos = Long.divideUnsigned(units, divisor);
        } else {
            nanos = binaryToNanos(units);
        }
        return saturatingAdd(nanos, offsetNanos);
    }

    private long binaryToNanos(long units) {
        int n = binaryExponent;
        long seconds = n == 0 ? units : units >>> n;
        if (seconds < 0 || seconds > MAX_SECONDS) {
            return Long.MAX_VALUE;
        }
        if (n == 0) {
            return seconds * NANOS_PER_SECOND;
        }
        long fraction = units & ((1L << n) - 1);
        long high = Math.multiplyHigh(fraction, NANOS_PER_SECOND);
        long low = fraction * NANOS_PER_SECOND;
        long fractionNanos = (high << (64 - n)) | (low >>> n);
        return saturatingAdd(seconds * NANOS_PER_SECOND, fractionNanos);
    }

    private static long pow10(int exponent) {
        long value = 1;
        for (int i = 0; i < exponent; i++) {
            value *= 10;
        }
        return value;
    }

    private static long saturatingMultiply(long a, long b) {
        long high = Math.multiplyHigh(a, b);
        long low = a * b;
        if ((high == 0 && low >= 0) || (high == -1 && low < 0)) {
            return low;
        }
        return (a < 0) == (b < 0) ? Long.MAX_VALUE : Long.MIN_VALUE;
    }

    private static long saturatingAdd(long a, long b) {
        long sum = a + b;
        if (((a ^ sum) & (b ^ sum)) < 0) {
            return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return sum;
    }
}
