package io.siteflow.agent.export;

import io.siteflow.agent.decode.DecodeStatus;
import io.siteflow.agent.decode.Packet;
import io.siteflow.agent.decode.PacketDecoder;
import io.siteflow.agent.export.ExporterState.SflowState;
import io.siteflow.model.IpAddresses;
import java.nio.ByteBuffer;

/**
 * Decodes sFlow version 5 datagrams (sflow.org, "sFlow Version 5", 2004) from a {@link ByteBuffer} (position 0 to the
 * limit, absolute gets) and gives each sampled IP packet to an {@link ExportReceiver} as a one-packet flow.
 *
 * <ul>
 *   <li>Datagram header: version 5, agent address (IPv4 or IPv6), sub-agent id, sequence number (datagrams, per
 *   agent and sub-agent: a gap is counted as lost datagrams, a step back as a reset), uptime, sample count.</li>
 *   <li>Flow samples (format 1) and expanded flow samples (3): sampling rate, sample pool, drops (the increase per
 *   data source is counted), and their records: the raw packet header (format 1) of header protocol 1 (Ethernet),
 *   11 (IPv4) or 12 (IPv6) is decoded by the agent's own {@link PacketDecoder}, as {@code capture} decodes a frame:
 *   IP bytes as the pcap path counts them (the IP header's length, not the sampled bytes), the frame length from the
 *   record less the octets stripped (the FCS), TCP flags; both are multiplied by the sampling rate by the
 *   receiver. A rate of 0 takes the configured default.</li>
 *   <li>Counter samples (2) and expanded counter samples (4): counted, and their generic interface counters
 *   (format 1); not turned into flows.</li>
 *   <li>Samples and records of other formats (and enterprises) are skipped by their length and counted.</li>
 * </ul>
 *
 * <p>Bad input is counted per {@link Malformed} kind with a message naming the exporter, the agent and the byte
 * offset; the samples read before the fault are kept. Not thread-safe: one decoder per receiving thread.
 */
public final class SflowDecoder {
    /** The {@code version} of an sFlow v5 datagram. */
    static final int VERSION = 5;
    /** Socket kind for {@link BiflowJoiner#source}: sFlow conversations are kept apart from NetFlow ones. */
    static final int KIND = 1;
    private static final int FLOW_SAMPLE = 1;
    private static final int COUNTER_SAMPLE = 2;
    private static final int EXPANDED_FLOW_SAMPLE = 3;
    private static final int EXPANDED_COUNTER_SAMPLE = 4;
    private static final int RAW_HEADER = 1;
    private static final int GENERIC_INTERFACE = 1;
    private static final int LINKTYPE_ETHERNET = 1;
    private static final int LINKTYPE_IPV4 = 228;
    private static final int LINKTYPE_IPV6 = 229;

    private final ExportCounters counters;
    private final long defaultSampling;
    private final int maxAgents;
    private final PacketDecoder packets = new PacketDecoder();
    private final Packet packet = new Packet();
    private final ExportFlow flow = new ExportFlow();
    private byte[] copy = new byte[0];
    /** The datagram being decoded (for messages). */
    private ExporterState exporter;
    private long agentHi;
    private long agentLo;
    private long subAgent;

    /**
     * @param defaultSampling the rate for flow samples that announce 0 ({@code --sampling}; 1: not sampled)
     * @param maxAgents       agents and sub-agents held per exporter; datagrams of more are refused and counted
     */
    public SflowDecoder(ExportCounters counters, long defaultSampling, int maxAgents) {
        this.counters = counters;
        this.defaultSampling = defaultSampling;
        this.maxAgents = maxAgents;
    }

    /** Decodes one datagram of {@code exporter}. */
    public void decode(ExporterState ex, ByteBuffer d, ExportReceiver out) {
        counters.datagram();
        exporter = ex;
        int n = d.limit();
        if (n < 8) {
            counters.malformed(Malformed.TRUNCATED_HEADER, "exporter " + ex.address + ": sFlow: " + n
                    + (n == 1 ? " byte" : " bytes") + ", too short for a version and an agent address type");
            return;
        }
        long version = u32(d, 0);
        if (version != VERSION) {
            counters.malformed(Malformed.UNKNOWN_VERSION, "exporter " + ex.address + ": sFlow version " + version
                    + " at offset 0 is not sFlow v5");
            return;
        }
        long type = u32(d, 4);
        int addressLength = type == 1 ? 4 : type == 2 ? 16 : -1;
        if (addressLength < 0) {
            counters.malformed(Malformed.UNKNOWN_VERSION, "exporter " + ex.address + ": sFlow v5: agent address type "
                    + type + " at offset 4 is not IPv4 (1) or IPv6 (2)");
            return;
        }
        int header = 8 + addressLength + 16;
        if (n < header) {
            counters.malformed(Malformed.TRUNCATED_HEADER, "exporter " + ex.address + ": sFlow v5: " + n
                    + " bytes, shorter than the " + header + "-byte header");
            return;
        }
        agentHi = addressLength == 4 ? 0 : d.getLong(8);
        agentLo = addressLength == 4 ? IpAddresses.v4Lo(d.getInt(8)) : d.getLong(16);
        int at = 8 + addressLength;
        subAgent = u32(d, at);
        long sequence = u32(d, at + 4);
        long samples = u32(d, at + 12);
        SflowState agent = ex.sflowAgent(agentHi, agentLo, subAgent, maxAgents);
        if (agent == null) {
            counters.malformed(Malformed.TEMPLATE_LIMIT, prefix() + "refused: the exporter has " + maxAgents
                    + " sFlow agents and sub-agents (the bound)");
            return;
        }
        sequence(agent, sequence);
        int p = header;
        for (long i = 0; i < samples; i++) {
            if (p + 8 > n) {
                counters.malformed(Malformed.BAD_SET_LENGTH, prefix() + "sample " + (i + 1) + " of " + samples
                        + " at offset " + p + ": its header runs past the end at " + n + "; " + i + " read");
                return;
            }
            long format = u32(d, p);
            long length = u32(d, p + 4);
            int body = p + 8;
            if (length > n - body) {
                counters.malformed(Malformed.BAD_SET_LENGTH, prefix() + "sample " + (i + 1) + " (format "
                        + format(format) + ") at offset " + p + " has length " + length + ", past the end at " + n
                        + "; " + i + " read");
                return;
            }
            int end = body + (int) length;
            if (format == FLOW_SAMPLE || format == EXPANDED_FLOW_SAMPLE) {
                flowSample(d, body, end, format == EXPANDED_FLOW_SAMPLE, agent, out);
            } else if (format == COUNTER_SAMPLE || format == EXPANDED_COUNTER_SAMPLE) {
                counterSample(d, body, end, format == EXPANDED_COUNTER_SAMPLE);
            } else {
                counters.countSflowSkippedRecord();
            }
            p = end;
        }
    }

    private void flowSample(ByteBuffer d, int body, int end, boolean expanded, SflowState agent, ExportReceiver out) {
        int fixed = expanded ? 44 : 32;
        String what = expanded ? "expanded flow sample" : "flow sample";
        if (end - body < fixed) {
            counters.malformed(Malformed.TRUNCATED_RECORD, prefix() + what + " at offset " + (body - 8) + ": length "
                    + (end - body) + ", shorter than its " + fixed + " fixed bytes");
            return;
        }
        counters.countSflowFlowSample();
        long source = expanded ? u32(d, body + 4) << 32 | u32(d, body + 8) : u32(d, body + 4);
        int r = expanded ? body + 12 : body + 8;
        long rate = u32(d, r);
        long drops = u32(d, r + 8);
        Long before = agent.drops.put(source, drops);
        if (before != null && drops > before) {
            counters.sflowAgentDrops(drops - before);
        }
        long sampling = rate == 0 ? defaultSampling : rate;
        long records = u32(d, body + fixed - 4);
        int p = body + fixed;
        for (long i = 0; i < records; i++) {
            if (p + 8 > end) {
                counters.malformed(Malformed.TRUNCATED_RECORD, prefix() + "flow record " + (i + 1) + " of " + records
                        + " at offset " + p + ": its header runs past the sample's end at " + end);
                return;
            }
            long format = u32(d, p);
            long length = u32(d, p + 4);
            int rb = p + 8;
            if (length > end - rb) {
                counters.malformed(Malformed.TRUNCATED_RECORD, prefix() + "flow record " + (i + 1) + " (format "
                        + format(format) + ") at offset " + p + " has length " + length + ", past the sample's end at "
                        + end);
                return;
            }
            if (format == RAW_HEADER) {
                rawHeader(d, rb, rb + (int) length, sampling, out);
            } else {
                counters.countSflowSkippedRecord();
            }
            p = rb + (int) length;
        }
    }

    private void rawHeader(ByteBuffer d, int body, int end, long sampling, ExportReceiver out) {
        if (end - body < 16) {
            counters.malformed(Malformed.TRUNCATED_RECORD, prefix() + "raw packet header at offset " + (body - 8)
                    + ": length " + (end - body) + ", shorter than its 16 fixed bytes");
            return;
        }
        long protocol = u32(d, body);
        long frameLength = u32(d, body + 4);
        long stripped = u32(d, body + 8);
        long headerLength = u32(d, body + 12);
        if (headerLength > end - body - 16) {
            counters.malformed(Malformed.TRUNCATED_RECORD, prefix() + "raw packet header at offset " + (body - 8)
                    + ": header length " + headerLength + " runs past the record's end at " + end);
            return;
        }
        int linkType = protocol == 1 ? LINKTYPE_ETHERNET : protocol == 11 ? LINKTYPE_IPV4
                : protocol == 12 ? LINKTYPE_IPV6 : -1;
        if (linkType < 0) {
            counters.countSflowNotIp();
            return;
        }
        byte[] data;
        int offset;
        if (d.hasArray()) {
            data = d.array();
            offset = d.arrayOffset() + body + 16;
        } else {
            if (copy.length < headerLength) {
                copy = new byte[(int) headerLength];
            }
            d.get(body + 16, copy, 0, (int) headerLength);
            data = copy;
            offset = 0;
        }
        long frame = Math.max(frameLength - stripped, 0);
        int wire = (int) Math.min(frame, Integer.MAX_VALUE);
        Packet pk = packet;
        DecodeStatus status = packets.decode(linkType, data, offset, (int) headerLength, wire, pk);
        if (status == DecodeStatus.MALFORMED) {
            counters.malformed(Malformed.BAD_SAMPLED_HEADER, prefix() + "sampled header at offset " + (body + 16)
                    + " (header protocol " + protocol + ", " + headerLength + " bytes): " + pk.malformed
                    + " at byte " + pk.malformedOffset);
            return;
        }
        if (status != DecodeStatus.IP) {
            counters.countSflowNotIp();
            return;
        }
        if (overflows(frame, sampling) || overflows(pk.ipBytes, sampling)) {
            counters.malformed(Malformed.BAD_COUNTER, prefix() + "raw packet header at offset " + (body - 8)
                    + ": frame length " + frame + " or IP length " + pk.ipBytes + " times the sampling rate " + sampling
                    + " is beyond 2^63 - 1; the sample is left out");
            return;
        }
        counters.countSflowPacket();
        ExportFlow f = flow;
        f.reset();
        f.srcHi = pk.srcHi;
        f.srcLo = pk.srcLo;
        f.dstHi = pk.dstHi;
        f.dstLo = pk.dstLo;
        f.hasSrc = true;
        f.hasDst = true;
        f.proto = pk.protocol;
        if (pk.hasPorts) {
            f.srcPort = pk.srcPort;
            f.dstPort = pk.dstPort;
        }
        f.tcpFlags = pk.tcpFlags;
        f.bytes = pk.ipBytes;
        f.packets = 1;
        f.frameBytes = frame;
        out.flow(exporter, subAgent, f, sampling);
    }

    private void counterSample(ByteBuffer d, int body, int end, boolean expanded) {
        int fixed = expanded ? 16 : 12;
        String what = expanded ? "expanded counter sample" : "counter sample";
        if (end - body < fixed) {
            counters.malformed(Malformed.TRUNCATED_RECORD, prefix() + what + " at offset " + (body - 8) + ": length "
                    + (end - body) + ", shorter than its " + fixed + " fixed bytes");
            return;
        }
        counters.countSflowCounterSample();
        long records = u32(d, body + fixed - 4);
        int p = body + fixed;
        for (long i = 0; i < records; i++) {
            if (p + 8 > end) {
                counters.malformed(Malformed.TRUNCATED_RECORD, prefix() + "counter record " + (i + 1) + " of "
                        + records + " at offset " + p + ": its header runs past the sample's end at " + end);
                return;
            }
            long format = u32(d, p);
            long length = u32(d, p + 4);
            if (length > end - p - 8) {
                counters.malformed(Malformed.TRUNCATED_RECORD, prefix() + "counter record " + (i + 1) + " (format "
                        + format(format) + ") at offset " + p + " has length " + length + ", past the sample's end at "
                        + end);
                return;
            }
            if (format == GENERIC_INTERFACE) {
                counters.countSflowInterfaceCounters();
            } else {
                counters.countSflowSkippedRecord();
            }
            p += 8 + (int) length;
        }
    }

    /** Datagram sequence numbers count datagrams per agent and sub-agent. */
    private void sequence(SflowState agent, long sequence) {
        if (agent.sequenceKnown) {
            long diff = (sequence - agent.nextSequence) & 0xFFFF_FFFFL;
            if (diff >= 0x8000_0000L) {
                counters.sequenceReset();
            } else if (diff > 0) {
                counters.sflowLostDatagrams(diff);
            }
        }
        agent.sequenceKnown = true;
        agent.nextSequence = (sequence + 1) & 0xFFFF_FFFFL;
    }

    /** "exporter 192.0.2.1: sFlow agent 10.0.0.1 sub-agent 0: ", built only for a message about a fault. */
    private String prefix() {
        return "exporter " + exporter.address + ": sFlow agent " + IpAddresses.format(agentHi, agentLo)
                + " sub-agent " + subAgent + ": ";
    }

    /** "0:1": enterprise and format of a data format word. */
    private static String format(long word) {
        return (word >>> 12) + ":" + (word & 0xFFF);
    }

    /** True when {@code count} times {@code rate} (both at most 2^32 - 1 here) does not fit a signed 64-bit count. */
    private static boolean overflows(long count, long rate) {
        return Math.multiplyHigh(count, rate) != 0 || count * rate < 0;
    }

    private static long u32(ByteBuffer d, int at) {
        return d.getInt(at) & 0xFFFF_FFFFL;
    }
}
