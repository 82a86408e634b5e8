package io.siteflow.agent.export;

import io.siteflow.agent.export.ExporterState.Domain;
import java.nio.ByteBuffer;

/**
 * Decodes NetFlow v5, NetFlow v9 (RFC 3954) and IPFIX (RFC 7011) datagrams from a {@link ByteBuffer} (position 0 to
 * the limit, read with absolute gets: no allocation per field or record) and gives each flow data record to an
 * {@link ExportReceiver}. Templates and options templates are kept per exporter and observation domain, withdrawn
 * (IPFIX template records with no fields) and expired when not refreshed within the template lifetime (UDP); a
 * template beyond the exporter's bound is refused. Sampling rates come from options data records (IEs 34, 50, or
 * 305 and 306), a v5 header, or the data record itself; else the configured default applies. Export loss is counted
 * from sequence numbers per exporter and domain: records for v5 and IPFIX, export packets for v9.
 *
 * <p>Bad input is counted per {@link Malformed} kind with a message naming the exporter, the domain and the byte
 * offset; what was read before the fault is kept. Not thread-safe: one decoder per receiving thread.
 */
public final class ExportDecoder {
    static final int V5_HEADER = 24;
    static final int V5_RECORD = 48;
    static final int V9_HEADER = 20;
    static final int IPFIX_HEADER = 16;

    private final ExportCounters counters;
    private final long defaultSampling;
    private final long templateLifetimeMs;
    private final int maxTemplates;
    private final int maxDomains;
    private final ExportFlow flow = new ExportFlow();
    private final Message message = new Message();

    /**
     * @param defaultSampling    the rate for exporters that announce none ({@code --sampling}; 1: not sampled)
     * @param templateLifetimeMs a template not refreshed for this long is dropped
     * @param maxTemplates       templates held per exporter, over all its domains
     * @param maxDomains         observation domains held per exporter
     */
    public ExportDecoder(ExportCounters counters, long defaultSampling, long templateLifetimeMs, int maxTemplates,
            int maxDomains) {
        this.counters = counters;
        this.defaultSampling = defaultSampling;
        this.templateLifetimeMs = templateLifetimeMs;
        this.maxTemplates = maxTemplates;
        this.maxDomains = maxDomains;
    }

    /** The counters this decoder writes. */
    public ExportCounters counters() {
        return counters;
    }

    /** Decodes one datagram of {@code exporter}, received at {@code nowMs}. */
    public void decode(ExporterState exporter, ByteBuffer d, long nowMs, ExportReceiver out) {
        counters.datagram();
        int n = d.limit();
        if (n < 2) {
            counters.malformed(Malformed.TRUNCATED_HEADER, "exporter " + exporter.address + ": " + n
                    + (n == 1 ? " byte" : " bytes") + ", too short for a version number");
            return;
        }
        int version = d.getShort(0) & 0xFFFF;
        switch (version) {
            case 5 -> v5(exporter, d, n, out);
            case 9 -> v9(exporter, d, n, nowMs, out);
            case 10 -> ipfix(exporter, d, n, nowMs, out);
            default -> counters.malformed(Malformed.UNKNOWN_VERSION, "exporter " + exporter.address + ": version "
                    + version + " at offset 0 is not NetFlow v5, v9 or IPFIX (10)");
        }
    }

    private void v5(ExporterState ex, ByteBuffer d, int n, ExportReceiver out) {
        if (n < V5_HEADER) {
            truncatedHeader(ex, "NetFlow v5", n, V5_HEADER);
            return;
        }
        int count = d.getShort(2) & 0xFFFF;
        long uptime = d.getInt(4) & 0xFFFF_FFFFL;
        long baseMs = (d.getInt(8) & 0xFFFF_FFFFL) * 1000 + (d.getInt(12) & 0xFFFF_FFFFL) / 1_000_000;
        long sequence = d.getInt(16) & 0xFFFF_FFFFL;
        long domainId = ((d.get(20) & 0xFF) << 8) | (d.get(21) & 0xFF);
        int samplingField = d.getShort(22) & 0xFFFF;
        Message m = message.reset(ex, "NetFlow v5 engine ", 5, domainId, -1, 0);
        Domain dom = domain(m);
        if (dom == null) {
            return;
        }
        int fit = (n - V5_HEADER) / V5_RECORD;
        if (fit < count) {
            counters.malformed(Malformed.BAD_LENGTH, m.prefix() + "the header at offset 2 counts " + count + " records (" + (V5_HEADER + count * V5_RECORD) + " bytes), the datagram has "
                    + n + " bytes; " + fit + " read");
        }
        sequence(dom, sequence, count, false);
        long interval = samplingField & 0x3FFF;
        long rate = (samplingField >>> 14) != 0 && interval > 1 ? interval : defaultSampling;
        ExportFlow f = flow;
        for (int i = 0, p = V5_HEADER; i < Math.min(count, fit); i++, p += V5_RECORD) {
            f.reset();
            Fields.apply(Fields.SRC4, d, p, 4, f);
            Fields.apply(Fields.DST4, d, p + 4, 4, f);
            f.packets = d.getInt(p + 16) & 0xFFFF_FFFFL;
            f.bytes = d.getInt(p + 20) & 0xFFFF_FFFFL;
            f.startMs = baseMs - (uptime - (d.getInt(p + 24) & 0xFFFF_FFFFL));
            f.endMs = baseMs - (uptime - (d.getInt(p + 28) & 0xFFFF_FFFFL));
            f.srcPort = d.getShort(p + 32) & 0xFFFF;
            f.dstPort = d.getShort(p + 34) & 0xFFFF;
            f.tcpFlags = d.get(p + 37) & 0xFF;
            f.proto = d.get(p + 38) & 0xFF;
            counters.record();
            out.flow(ex, domainId, f, rate);
        }
    }

    private void v9(ExporterState ex, ByteBuffer d, int n, long nowMs, ExportReceiver out) {
        if (n < V9_HEADER) {
            truncatedHeader(ex, "NetFlow v9", n, V9_HEADER);
            return;
        }
        long uptime = d.getInt(4) & 0xFFFF_FFFFL;
        long baseMs = (d.getInt(8) & 0xFFFF_FFFFL) * 1000;
        long sequence = d.getInt(12) & 0xFFFF_FFFFL;
        long domainId = d.getInt(16) & 0xFFFF_FFFFL;
        Message m = message.reset(ex, "NetFlow v9 source ", 9, domainId, baseMs - uptime, nowMs);
        Domain dom = domain(m);
        if (dom == null) {
            return;
        }
        sequence(dom, sequence, 1, true);
        sets(m, dom, d, V9_HEADER, n, out);
    }

    private void ipfix(ExporterState ex, ByteBuffer d, int n, long nowMs, ExportReceiver out) {
        if (n < IPFIX_HEADER) {
            truncatedHeader(ex, "IPFIX", n, IPFIX_HEADER);
            return;
        }
        int length = d.getShort(2) & 0xFFFF;
        long sequence = d.getInt(8) & 0xFFFF_FFFFL;
        long domainId = d.getInt(12) & 0xFFFF_FFFFL;
        Message m = message.reset(ex, "IPFIX domain ", 10, domainId, -1, nowMs);
        Domain dom = domain(m);
        if (dom == null) {
            return;
        }
        int end = n;
        if (length != n) {
            counters.malformed(Malformed.BAD_LENGTH, m.prefix() + "message length " + length + " at offset 2, the "
                    + "datagram has " + n + " bytes");
            if (length < IPFIX_HEADER) {
                return;
            }
            end = Math.min(length, n);
        }
        boolean known = dom.sequenceKnown;
        long expected = dom.nextSequence;
        sets(m, dom, d, IPFIX_HEADER, end, out);
        if (known) {
            long diff = (sequence - expected) & 0xFFFF_FFFFL;
            countGap(diff, false);
        }
        dom.sequenceKnown = m.recordsCounted;
        dom.nextSequence = (sequence + m.dataRecords) & 0xFFFF_FFFFL;
    }

    /** The sets of a v9 or IPFIX message from {@code p} to {@code end}. */
    private void sets(Message m, Domain dom, ByteBuffer d, int p, int end, ExportReceiver out) {
        int header = 4;
        while (end - p >= header) {
            int id = d.getShort(p) & 0xFFFF;
            int len = d.getShort(p + 2) & 0xFFFF;
            if (len < header || len > end - p) {
                counters.malformed(Malformed.BAD_SET_LENGTH, m.prefix() + "set " + id + " at offset " + p
                        + " has length " + len + " (below " + header + ", or past the end at " + end + ")");
                m.recordsCounted = false;
                return;
            }
            int setEnd = p + len;
            if (m.version == 9 ? id == 0 : id == 2) {
                templates(m, dom, d, p + header, setEnd, false);
            } else if (m.version == 9 ? id == 1 : id == 3) {
                templates(m, dom, d, p + header, setEnd, true);
            } else if (id >= 256) {
                data(m, dom, id, d, p, setEnd, out);
            }
            p = setEnd;
        }
    }

    private void templates(Message m, Domain dom, ByteBuffer d, int p, int end, boolean options) {
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
    private void withdraw(Message m, Domain dom, int id, boolean options) {
        if (id == (options ? 3 : 2)) {
            int before = dom.templates.size();
            dom.templates.values().removeIf(t -> t.options() == options);
            m.exporter.templates -= before - dom.templates.size();
        } else if (dom.templates.remove(id) != null) {
            m.exporter.templates--;
        }
    }

    private void data(Message m, Domain dom, int id, ByteBuffer d, int setStart, int end, ExportReceiver out) {
        Template t = dom.templates.get(id);
        if (t != null && m.nowMs - t.refreshedMs > templateLifetimeMs) {
            dom.templates.remove(id);
            m.exporter.templates--;
            counters.templateExpired();
            t = null;
        }
        if (t == null) {
            counters.malformed(Malformed.NO_TEMPLATE, m.prefix() + "data set of template " + id + " at offset "
                    + setStart + ": no such template (not received yet, withdrawn or expired)");
            m.recordsCounted = false;
            return;
        }
        ExportFlow f = flow;
        int p = setStart + 4;
        while (end - p >= t.minLength) {
            f.reset();
            int next = record(t, d, p, end, f);
            if (next < 0) {
                counters.malformed(Malformed.TRUNCATED_RECORD, m.prefix() + "data record of template " + id
                        + " at offset " + p + " runs past its set end at " + end);
                m.recordsCounted = false;
                return;
            }
            p = next;
            m.dataRecords++;
            if (t.options()) {
                counters.optionsRecord();
                options(dom, f);
            } else {
                emit(m, dom, f, out);
            }
        }
    }

    /** Reads one record into {@code f}; returns the offset after it, or -1 when it runs past {@code end}. */
    private static int record(Template t, ByteBuffer d, int p, int end, ExportFlow f) {
        int[] kinds = t.kinds;
        int[] lengths = t.lengths;
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

    private static void options(Domain dom, ExportFlow f) {
        if (f.samplingInterval > 0) {
            dom.sampling = f.samplingInterval;
        } else if (f.packetInterval > 0) {
            dom.sampling = (f.packetInterval + f.packetSpace) / f.packetInterval;
        }
    }

    private void emit(Message m, Domain dom, ExportFlow f, ExportReceiver out) {
        if (m.uptimeBaseMs >= 0) {
            if (f.firstUptime >= 0 && f.startMs < 0) {
                f.startMs = m.uptimeBaseMs + f.firstUptime;
            }
            if (f.lastUptime >= 0 && f.endMs < 0) {
                f.endMs = m.uptimeBaseMs + f.lastUptime;
            }
        }
        long rate = dom.sampling > 1 ? dom.sampling : f.samplingInterval > 1 ? f.samplingInterval : defaultSampling;
        counters.record();
        out.flow(m.exporter, m.domain, f, rate);
    }

    private Domain domain(Message m) {
        Domain d = m.exporter.domain(m.version, m.domain, maxDomains);
        if (d == null) {
            counters.malformed(Malformed.TEMPLATE_LIMIT, m.prefix() + "refused: the exporter has " + maxDomains
                    + " domains (the bound)");
        }
        return d;
    }

    /** v5 and v9: checks the sequence at the start of a datagram and expects {@code count} more. */
    private void sequence(Domain dom, long sequence, int count, boolean packets) {
        if (dom.sequenceKnown) {
            countGap((sequence - dom.nextSequence) & 0xFFFF_FFFFL, packets);
        }
        dom.sequenceKnown = true;
        dom.nextSequence = (sequence + count) & 0xFFFF_FFFFL;
    }

    private void countGap(long diff, boolean packets) {
        if (diff == 0) {
            return;
        }
        if (diff >= 0x8000_0000L) {
            counters.sequenceReset();
        } else if (packets) {
            counters.lostPackets(diff);
        } else {
            counters.lostRecords(diff);
        }
    }

    private void truncatedHeader(ExporterState ex, String what, int n, int header) {
        counters.malformed(Malformed.TRUNCATED_HEADER, "exporter " + ex.address + ": " + what + ": " + n
                + " bytes, shorter than the " + header + "-byte header");
    }

    private void badTemplate(Message m, int at, String what) {
        counters.malformed(Malformed.BAD_TEMPLATE, m.prefix() + "template " + what);
    }

    /** The datagram being decoded; reused. */
    private static final class Message {
        ExporterState exporter;
        String what;
        int version;
        long domain;
        /** v9: epoch ms of the exporter's boot (export time - sysUptime); -1 otherwise. */
        long uptimeBaseMs;
        long nowMs;
        long dataRecords;
        boolean recordsCounted;

        Message reset(ExporterState exporter, String what, int version, long domain, long uptimeBaseMs, long nowMs) {
            this.exporter = exporter;
            this.what = what;
            this.version = version;
            this.domain = domain;
            this.uptimeBaseMs = uptimeBaseMs;
            this.nowMs = nowMs;
            this.dataRecords = 0;
            this.recordsCounted = true;
            return this;
        }

        /** "exporter 192.0.2.1: IPFIX domain 7: ", built only for a message about a fault. */
        String prefix() {
            return "exporter " + exporter.address + ": " + what + domain + ": ";
        }
    }
}
