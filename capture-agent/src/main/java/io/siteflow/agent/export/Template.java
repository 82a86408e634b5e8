package io.siteflow.agent.export;

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
}
