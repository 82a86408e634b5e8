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
    private final int maxDomains;
    private final ExportFlow flow = new ExportFlow();
    private final Message message = new Message();
    private final TemplateSets templates;

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
        this.templates = new TemplateSets(counters, maxTemplates);
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
                templates.read(m, dom, d, p + header, setEnd, false);
            } else if (m.version == 9 ? id == 1 : id == 3) {
                templates.read(m, dom, d, p + header, setEnd, true);
            } else if (id >= 256) {
                data(m, dom, id, d, p, setEnd, out);
            }
            p = setEnd;
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
            int next = t.read(d, p, end, f);
            if (next < 0) {
                counters.malformed(Malformed.TRUNCATED_RECORD, m.prefix() + "data record of template " + id
                        + " at offset " + p + " runs past its set end at " + end);
                m.recordsCounted = false;
                return;
            }
            int at = p;
            p = next;
            m.dataRecords++;
            if (t.options()) {
                counters.optionsRecord();
                options(dom, f);
            } else {
                emit(m, dom, f, id, at, out);
            }
        }
    }

    private static void options(Domain dom, ExportFlow f) {
        if (f.samplingInterval > 0) {
            dom.sampling = f.samplingInterval;
        } else if (f.packetInterval > 0) {
            dom.sampling = (f.packetInterval + f.packetSpace) / f.packetInterval;
        }
    }

    private void emit(Message m, Domain dom, ExportFlow f, int id, int at, ExportReceiver out) {
        long rate = dom.sampling > 1 ? dom.sampling : f.samplingInterval > 1 ? f.samplingInterval : defaultSampling;
        String bad = counter("octets", f.bytes, rate) + counter("packets", f.packets, rate)
                + counter("reverse octets", f.rbytes, rate) + counter("reverse packets", f.rpackets, rate);
        if (!bad.isEmpty()) {
            counters.malformed(Malformed.BAD_COUNTER, m.prefix() + "data record of template " + id + " at offset "
                    + at + ":" + bad.substring(1) + "; the record is left out");
            return;
        }
        if (m.uptimeBaseMs >= 0) {
            if (f.firstUptime >= 0 && f.startMs < 0) {
                f.startMs = m.uptimeBaseMs + f.firstUptime;
            }
            if (f.lastUptime >= 0 && f.endMs < 0) {
                f.endMs = m.uptimeBaseMs + f.lastUptime;
            }
        }
        counters.record();
        out.flow(m.exporter, m.domain, f, rate);
    }

    /**
     * "; octets 9223372036854775808 is beyond 2^63 - 1" when {@code value} (unsigned) times {@code rate} does not fit
     * a record's signed 64-bit counter; else empty.
     */
    private static String counter(String name, long value, long rate) {
        if (value >= 0 && Math.multiplyHigh(value, rate) == 0 && value * rate >= 0) {
            return "";
        }
        return "; " + name + " " + Long.toUnsignedString(value) + (rate > 1 ? " times the sampling rate " + rate : "")
                + " is beyond 2^63 - 1";
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

}
