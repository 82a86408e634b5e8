package io.siteflow.rules.whatif;

/**
 * How many distinct flows were seen, estimated in {@value #REGISTERS} bytes (HyperLogLog, 2^10 registers: a
 * standard error of 1.04/√1024 ≈ 3%; linear counting below 2.5 × 1024): what {@link FlowTally} counts once it
 * keeps fewer flows than it was given. Mergeable (register by register); not thread-safe.
 */
final class DistinctFlows {
    static final int REGISTERS = 1 << 10;
    private static final int INDEX_BITS = 10;
    private final byte[] registers;

    DistinctFlows() {
        this(new byte[REGISTERS]);
    }

    /** Over {@code registers} (the codec's; {@value #REGISTERS} of them), not copied. */
    DistinctFlows(byte[] registers) {
        if (registers.length != REGISTERS) {
            throw new IllegalArgumentException(registers.length + " registers, not " + REGISTERS);
        }
        this.registers = registers;
    }

    void add(WhatIfReport.Flow flow) {
        long h = hash(flow.text());
        int index = (int) (h >>> (64 - INDEX_BITS));
        int rank = Long.numberOfLeadingZeros((h << INDEX_BITS) | (1L << (INDEX_BITS - 1))) + 1;
        if (rank > registers[index]) {
            registers[index] = (byte) rank;
        }
    }

    void merge(DistinctFlows other) {
        for (int i = 0; i < REGISTERS; i++) {
            registers[i] = (byte) Math.max(registers[i], other.registers[i]);
        }
    }

    long estimate() {
        double sum = 0;
        int zeros = 0;
        for (byte r : registers) {
            sum += 1.0 / (1L << r);
            zeros += r == 0 ? 1 : 0;
        }
        double m = REGISTERS;
        double e = 0.7213 / (1 + 1.079 / m) * m * m / sum;
        if (e <= 2.5 * m && zeros > 0) {
            e = m * Math.log(m / zeros);
        }
        return Math.round(e);
    }

    byte[] registers() {
        return registers;
    }

    /** FNV-1a over the text's characters, then MurmurHash3's 64-bit finaliser (every bit depends on every input bit). */
    private static long hash(String text) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < text.length(); i++) {
            h ^= text.charAt(i);
            h *= 0x100000001b3L;
        }
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }
}
