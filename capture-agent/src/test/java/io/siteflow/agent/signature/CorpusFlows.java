package io.siteflow.agent.signature;

import io.siteflow.model.L7Protocol;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * Test-only: runs {@link SignatureDetector} over the TCP/UDP flows of a pcap or pcapng file (gzip
 * allowed), with a minimal reader and Ethernet/VLAN/SLL/SLL2/null/raw + IPv4/IPv6 + TCP/UDP parse.
 * The project's own reader and decoder are tested elsewhere; this one only has to find payloads.
 * The initiator of a flow is its first sender (the SYN sender when the capture holds the handshake).
 */
final class CorpusFlows {

    /** What the detector concluded for one flow. */
    record Result(L7Protocol protocol, String sni, int state) {
    }

    private final SignatureDetector detector = new SignatureDetector();
    private final int snaplen;
    private final Map<String, Integer> states = new LinkedHashMap<>();
    private final Map<String, String> snis = new LinkedHashMap<>();

    private CorpusFlows(int snaplen) {
        this.snaplen = snaplen;
    }

    /** Flows of {@code file} by key ({@code tcp a:p > b:q}, initiator first), packets cut to {@code snaplen}. */
    static Map<String, Result> detect(Path file, int snaplen) throws IOException {
        CorpusFlows flows = new CorpusFlows(snaplen);
        byte[] raw;
        try (InputStream in = Files.newInputStream(file)) {
            raw = in.readAllBytes();
        }
        if (raw.length > 2 && (raw[0] & 0xff) == 0x1f && (raw[1] & 0xff) == 0x8b) {
            try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
                raw = in.readAllBytes();
            }
        }
        ByteBuffer b = ByteBuffer.wrap(raw);
        if (b.getInt(0) == 0x0A0D0D0A) {
            flows.pcapng(b);
        } else {
            flows.pcap(b);
        }
        Map<String, Result> out = new LinkedHashMap<>();
        flows.states.forEach((k, s) -> out.put(k, new Result(SignatureState.protocol(s), flows.snis.getOrDefault(k, ""), s)));
        return out;
    }

    private void pcap(ByteBuffer b) {
        int magic = b.getInt(0);
        b.order(magic == 0xA1B2C3D4 || magic == 0xA1B23C4D ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        int linkType = b.getInt(20) & 0xffff;
        for (int o = 24; o + 16 <= b.limit(); ) {
            int capLen = b.getInt(o + 8);
            if (capLen < 0 || o + 16 + capLen > b.limit()) {
                return;
            }
            packet(linkType, b.array(), o + 16, capLen);
            o += 16 + capLen;
        }
    }

    private void pcapng(ByteBuffer b) {
        int[] linkTypes = new int[64];
        int interfaces = 0;
        for (int o = 0; o + 12 <= b.limit(); ) {
            if (b.getInt(o) == 0x0A0D0D0A) {
                b.order(b.getInt(o + 8) == 0x1A2B3C4D ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
                interfaces = 0;
            }
            int type = b.getInt(o);
            int len = b.getInt(o + 4);
            if (len < 12 || o + len > b.limit()) {
                return;
            }
            if (type == 1 && interfaces < linkTypes.length) {
                linkTypes[interfaces++] = b.getShort(o + 8) & 0xffff;
            } else if (type == 6) {
                packet(linkTypes[b.getInt(o + 8)], b.array(), o + 28, b.getInt(o + 20));
            } else if (type == 3) {
                packet(linkTypes[0], b.array(), o + 12, Math.min(b.getInt(o + 8), len - 16));
            }
            o += len;
        }
    }

    private void packet(int linkType, byte[] d, int start, int capLen) {
        int end = start + capLen;
        int o;
        int etherType;
        switch (linkType) {
            case 1 -> {
                o = start + 14;
                etherType = u16(d, start + 12);
                while ((etherType == 0x8100 || etherType == 0x88a8) && o + 4 <= end) {
                    etherType = u16(d, o + 2);
                    o += 4;
                }
            }
            case 0 -> {
                o = start + 4;
                etherType = d[start] == 2 || d[start + 3] == 2 ? 0x0800 : 0x86dd;
            }
            case 101, 12, 14 -> {
                o = start;
                etherType = (d[start] & 0xf0) == 0x40 ? 0x0800 : 0x86dd;
            }
            case 113 -> {
                o = start + 16;
                etherType = u16(d, start + 14);
            }
            case 276 -> {
                o = start + 20;
                etherType = u16(d, start);
            }
            default -> {
                return;
            }
        }
        if (etherType == 0x0800 && o + 20 <= end) {
            ipv4(d, start, o, end);
        } else if (etherType == 0x86dd && o + 40 <= end) {
            ipv6(d, start, o, end);
        }
    }

    private void ipv4(byte[] d, int start, int o, int end) {
        if ((u16(d, o + 6) & 0x1fff) != 0) {
            return;
        }
        String src = (d[o + 12] & 0xff) + "." + (d[o + 13] & 0xff) + "." + (d[o + 14] & 0xff) + "." + (d[o + 15] & 0xff);
        String dst = (d[o + 16] & 0xff) + "." + (d[o + 17] & 0xff) + "." + (d[o + 18] & 0xff) + "." + (d[o + 19] & 0xff);
        int ipEnd = u16(d, o + 2) == 0 ? end : o + u16(d, o + 2);
        transport(d, start, d[o + 9] & 0xff, src, dst, o + (d[o] & 0xf) * 4, ipEnd, end);
    }

    private void ipv6(byte[] d, int start, int o, int end) {
        int next = d[o + 6] & 0xff;
        int ipEnd = o + 40 + u16(d, o + 4);
        String src = hex(d, o + 8);
        String dst = hex(d, o + 24);
        int h = o + 40;
        while ((next == 0 || next == 43 || next == 60 || next == 44) && h + 8 <= end) {
            if (next == 44 && (u16(d, h + 2) & 0xfff8) != 0) {
                return;
            }
            int len = next == 44 ? 8 : ((d[h + 1] & 0xff) + 1) * 8;
            next = d[h] & 0xff;
            h += len;
        }
        transport(d, start, next, src, dst, h, ipEnd, end);
    }

    private void transport(byte[] d, int start, int proto, String src, String dst, int l4, int ipEnd, int end) {
        int header = proto == 6 ? 20 : proto == 17 ? 8 : -1;
        if (header < 0 || l4 + header > end) {
            return;
        }
        int payload = proto == 6 ? l4 + ((d[l4 + 12] & 0xf0) >> 2) : l4 + 8;
        int payloadLen = ipEnd - payload;
        String name = proto == 6 ? "tcp " : "udp ";
        String ab = name + src + ":" + u16(d, l4) + " > " + dst + ":" + u16(d, l4 + 2);
        String ba = name + dst + ":" + u16(d, l4 + 2) + " > " + src + ":" + u16(d, l4);
        boolean fromInitiator = !states.containsKey(ba);
        String key = fromInitiator ? ab : ba;
        int state = states.getOrDefault(key, SignatureState.INITIAL);
        int captured = Math.max(0, Math.min(Math.min(end, ipEnd), start + snaplen) - payload);
        if (payloadLen > 0 && !SignatureState.isDone(state)) {
            state = detector.inspect(state, fromInitiator, proto, d, payload, captured, payloadLen);
            if (SignatureState.hasSni(state)) {
                snis.put(key, detector.sni(d, payload, captured));
            }
        }
        states.put(key, state);
    }

    private static int u16(byte[] d, int i) {
        return (d[i] & 0xff) << 8 | (d[i + 1] & 0xff);
    }

    private static String hex(byte[] d, int i) {
        StringBuilder s = new StringBuilder("[");
        for (int k = 0; k < 16; k += 2) {
            s.append(k == 0 ? "" : ":").append(Integer.toHexString(u16(d, i + k)));
        }
        return s.append(']').toString();
    }
}
