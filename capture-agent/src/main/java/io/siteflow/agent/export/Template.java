package io.siteflow.agent.export;

import java.nio.ByteBuffer;

/**
 * A (data or options) template of one exporter and domain: per field its kind ({@link Fields}) and length
 * ({@link Fields#VARIABLE} for variable length). Mutable only in its refresh time. Not thread-safe.
 */
final class Template {
    final int id;
    final int scopeCount;
    final int[] kinds;
    final int[] lengths;
    /** The shortest record: fixed lengths plus one byte per variable-length field. */
    final int minLength;
    long refreshedMs;

    Template(int id, int scopeCount, int[] kinds, int[] lengths, long nowMs) {
        this.id = id;
        this.scopeCount = scopeCount;
        this.kinds = kinds;
        this.lengths = lengths;
        int min = 0;
        for (int len : lengths) {
            min += len == Fields.VARIABLE ? 1 : len;
        }
        this.minLength = Math.max(min, 1);
        this.refreshedMs = nowMs;
    }

    /** True for an options template (it has scope fields): its records describe the exporter, not flows. */
    boolean options() {
        return scopeCount > 0;
    }

    /** Reads one record into {@code f}; returns the offset after it, or -1 when it runs past {@code end}. */
    int read(ByteBuffer d, int p, int end, ExportFlow f) {
        for (int i = 0; i < kinds.length; i++) {
            int len = lengths[i];
            if (len == Fields.VARIABLE) {
                if (p >= end) {
                    return -1;
                }
                len = d.get(p++) & 0xFF;
                if (len == 255) {
                    if (end - p < 2) {
                        return -1;
                    }
                    len = d.getShort(p) & 0xFFFF;
                    p += 2;
                }
            }
            if (end - p < len) {
                return -1;
            }
            Fields.apply(kinds[i], d, p, len, f);
            p += len;
        }
        return p;
    }
}
