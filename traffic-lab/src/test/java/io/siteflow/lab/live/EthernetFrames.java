package io.siteflow.lab.live;

import io.siteflow.lab.NetnsLab;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.HexFormat;

/** Ethernet frames for injection from B to A of a {@link NetnsLab}, optionally 802.1Q-tagged. */
final class EthernetFrames {
    private EthernetFrames() {
    }

    /** An IPv4/UDP frame from {@link NetnsLab#MAC_B} to {@link NetnsLab#MAC_A}; {@code vlan} 0 means untagged. */
    static byte[] udp(int vlan, String src, String dst, byte[] payload) {
        int ipLength = 20 + 8 + payload.length;
        ByteBuffer b = ByteBuffer.allocate(14 + (vlan == 0 ? 0 : 4) + ipLength);
        b.put(mac(NetnsLab.MAC_A)).put(mac(NetnsLab.MAC_B));
        if (vlan != 0) {
            b.putShort((short) 0x8100).putShort((short) vlan);
        }
        b.putShort((short) 0x0800);
        b.put((byte) 0x45).put((byte) 0).putShort((short) ipLength).putInt(0).put((byte) 64).put((byte) 17)
                .putShort((short) 0).put(ip(src)).put(ip(dst));
        b.putShort((short) 40000).putShort((short) 9).putShort((short) (8 + payload.length)).putShort((short) 0)
                .put(payload);
        return b.array();
    }

    static boolean hasVlan100(CapturedPacket p) {
        byte[] d = p.bytes();
        return (d[12] & 0xFF) == 0x81 && d[13] == 0 && (((d[14] & 0x0F) << 8) | (d[15] & 0xFF)) == 100;
    }

    /** "src>dst" of an IPv4 frame with or without one tag. */
    static String ipv4Addresses(CapturedPacket p) {
        byte[] d = p.bytes();
        int ip = hasVlan100(p) ? 18 : 14;
        return dotted(d, ip + 12) + ">" + dotted(d, ip + 16);
    }

    private static String dotted(byte[] d, int at) {
        return (d[at] & 0xFF) + "." + (d[at + 1] & 0xFF) + "." + (d[at + 2] & 0xFF) + "." + (d[at + 3] & 0xFF);
    }

    private static byte[] mac(String text) {
        return HexFormat.ofDelimiter(":").parseHex(text);
    }

    private static byte[] ip(String text) {
        try {
            return InetAddress.getByName(text).getAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(text, e);
        }
    }
}
