package io.siteflow.agent.flow;

import io.siteflow.agent.decode.Packet;
import io.siteflow.model.IpAddresses;

/** Builds decoded packets for flow-table tests. */
final class Packets {
    static final int FIN = 0x01;
    static final int SYN = 0x02;
    static final int RST = 0x04;
    static final int PSH = 0x08;
    static final int ACK = 0x10;

    private Packets() {
    }

    static Packet tcp(String src, int sp, String dst, int dp, int flags, long seq, long ack, int payload) {
        Packet p = ip(src, dst, 6, 40 + payload);
        p.hasPorts = true;
        p.srcPort = sp;
        p.dstPort = dp;
        p.tcpFlags = flags;
        p.tcpSeq = seq & 0xFFFFFFFFL;
        p.tcpAck = ack & 0xFFFFFFFFL;
        p.payloadLength = payload;
        return p;
    }

    static Packet udp(String src, int sp, String dst, int dp, int payload) {
        Packet p = ip(src, dst, 17, 28 + payload);
        p.hasPorts = true;
        p.srcPort = sp;
        p.dstPort = dp;
        p.payloadLength = payload;
        return p;
    }

    static Packet ip(String src, String dst, int proto, int ipBytes) {
        Packet p = new Packet();
        long[] s = IpAddresses.parse(src);
        long[] d = IpAddresses.parse(dst);
        p.ipVersion = src.indexOf(':') >= 0 ? 6 : 4;
        p.srcHi = s[0];
        p.srcLo = s[1];
        p.dstHi = d[0];
        p.dstLo = d[1];
        p.protocol = proto;
        p.ipBytes = ipBytes;
        return p;
    }

    static long ms(long millis) {
        return millis * 1_000_000L;
    }
}
