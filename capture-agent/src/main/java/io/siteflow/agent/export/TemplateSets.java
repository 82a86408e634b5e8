package io.siteflow.agent.export;

import io.siteflow.agent.export.ExporterState.Domain;
import java.nio.ByteBuffer;

/**
 * Reads NetFlow v9 (FlowSet 0 and 1) and IPFIX (set 2 and 3) template and options template records into an
 * exporter's domain: each field mapped once to its kind ({@link Fields}), impossible lengths and templates whose
 * records would take no bytes refused ({@link Malformed#BAD_TEMPLATE}), IPFIX withdrawals applied, and the
 * exporter's template bound kept ({@link Malformed#TEMPLATE_LIMIT}). Not thread-safe (the decoder's thread).
 */
final class TemplateSets {
    private final ExportCounters counters;
    private final int maxTemplates;

    TemplateSets(ExportCounters counters, int maxTemplates) {
        this.counters = counters;
        this.maxTemplates = maxTemplates;
    }

    /**
     * Reads the template records (or, with {@code options}, the options template records) of a set from {@code p}
     * to {@code end} into the domain; withdrawals (IPFIX) remove templates. Stops at the first bad record.
     */
    void read(Message m, Domain dom, ByteBuffer d, int p, int end, boolean options) {
        boolean v9 = m.version == 9;
        int fixed = options ? 6 : 4;
        while (end - p >= 4) {
            int at = p;
            int id = d.getShort(p) & 0xFFFF;
            int second = d.getShort(p + 2) & 0xFFFF;
            if (id == 0 && second == 0) {
                return; // padding
            }
            if (!v9 && second == 0) {
                withdraw(m, dom, id, options);
                p += 4;
                continue;
            }
            if (end - p < fixed) {
                badTemplate(m, at, id + " at offset " + at + " runs past its set at " + end);
                return;
            }
            int fieldCount;
            int scopeCount;
            if (v9 && options) {
                int scopeBytes = second;
                int optionBytes = d.getShort(p + 4) & 0xFFFF;
                scopeCount = scopeBytes / 4;
                fieldCount = scopeCount + optionBytes / 4;
            } else {
                fieldCount = second;
                scopeCount = options ? d.getShort(p + 4) & 0xFFFF : 0;
            }
            p += fixed;
            if (id < 256) {
                badTemplate(m, at, id + " at offset " + at + " is not a template id (256-65535)");
                return;
            }
            if (options && (scopeCount == 0 || scopeCount > fieldCount)) {
                badTemplate(m, at, id + " at offset " + at + " has " + scopeCount + " scope fields of " + fieldCount);
                return;
            }
            int[] kinds = new int[fieldCount];
            int[] lengths = new int[fieldCount];
            int recordBytes = 0;
            for (int i = 0; i < fieldCount; i++) {
                if (end - p < 4) {
                    badTemplate(m, at, id + " at offset " + at + " runs past its set at " + end);
                    return;
                }
                int ie = d.getShort(p) & 0xFFFF;
                int len = d.getShort(p + 2) & 0xFFFF;
                long pen = 0;
                p += 4;
                if (!v9 && (ie & 0x8000) != 0) {
                    if (end - p < 4) {
                        badTemplate(m, at, id + " at offset " + at + " runs past its set at " + end);
                        return;
                    }
                    ie &= 0x7FFF;
                    pen = d.getInt(p) & 0xFFFF_FFFFL;
                    p += 4;
                }
                int kind = Fields.kind(pen, ie);
                if (len == Fields.VARIABLE && (v9 || kind != Fields.SKIP)) {
                    badTemplate(m, at, id + " at offset " + at + ": field " + (i + 1) + " (" + element(pen, ie)
                            + ") cannot have variable length");
                    return;
                }
                String expected = len == Fields.VARIABLE ? null : Fields.expectedLength(kind, len);
                if (expected != null) {
                    badTemplate(m, at, id + " at offset " + at + ": field " + (i + 1) + " (" + element(pen, ie)
                            + ") has length " + len + ", expected " + expected);
                    return;
                }
                kinds[i] = kind;
                lengths[i] = len;
                recordBytes += len == Fields.VARIABLE ? 1 : len;
            }
            if (recordBytes == 0) {
                // a record of no bytes: a data set of this template would hold records without end
                badTemplate(m, at, id + " at offset " + at + " has " + (fieldCount == 0 ? "no fields"
                        : "only fields of length 0") + ": its records would take no bytes");
                return;
            }
            if (!store(m, dom, new Template(id, scopeCount, kinds, lengths, m.nowMs), at)) {
                return;
            }
        }
    }

    private static String element(long pen, int ie) {
        return pen == 0 ? "IE " + ie : "IE " + ie + " of enterprise " + pen;
    }

    private boolean store(Message m, Domain dom, Template t, int at) {
        Template old = dom.templates.get(t.id);
        if (old == null && m.exporter.templates >= maxTemplates) {
            counters.malformed(Malformed.TEMPLATE_LIMIT, m.prefix() + "template " + t.id + " at offset " + at
                    + " refused: the exporter holds " + m.exporter.templates + " templates (the bound)");
            return false;
        }
        if (old == null) {
            m.exporter.templates++;
        }
        dom.templates.put(t.id, t);
        return true;
    }

    /** RFC 7011 8.1: template id 2 (set 2) or 3 (set 3) withdraws all templates of that kind. */
    private static void withdraw(Message m, Domain dom, int id, boolean options) {
        if (id == (options ? 3 : 2)) {
            int before = dom.templates.size();
            dom.templates.values().removeIf(t -> t.options() == options);
            m.exporter.templates -= before - dom.templates.size();
        } else if (dom.templates.remove(id) != null) {
            m.exporter.templates--;
        }
    }

    private void badTemplate(Message m, int at, String what) {
        counters.malformed(Malformed.BAD_TEMPLATE, m.prefix() + "template " + what);
    }
}
