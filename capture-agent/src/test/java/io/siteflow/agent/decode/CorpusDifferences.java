package io.siteflow.agent.decode;

import java.util.Map;

/**
 * Corpus files whose IP-pair counts differ from tshark's on purpose, each with the reason; the same list,
 * explained, is in {@code capture-agent/docs/decode.md}.
 */
final class CorpusDifferences {
    private static final String FUTURE = "packets dated 2038 or later: the agent skips packets dated more than 5 min"
            + " ahead of the host clock (pipeline.ClockCheck, issue 17 defect 0), tshark counts them";
    private static final Map<String, String> KNOWN = Map.ofEntries(
            Map.entry("edge/libpcap/filter/AH-IPcomp-IPv4.pcap",
                    "tunnel: AH tunnel mode whose inner packets are IPComp-compressed; tshark decompresses them"
                            + " and counts the inner pair, which we never decode"),
            Map.entry("edge/suricata-verify/bug-6875-01/fuzz.pcap",
                    "damaged file: tshark lists no conversation, although the first record holds a valid IPv4"
                            + " packet; its pcap reader takes the fuzzed file for another pcap variant"),
            Map.entry("edge/arkime/y2038-bgp.pcap", FUTURE),
            Map.entry("edge/tcpdump/relts-0x80000000.pcap", FUTURE),
            Map.entry("edge/tcpdump/time_2038.pcap", FUTURE),
            Map.entry("edge/tcpdump/time_2106.pcap", FUTURE),
            Map.entry("edge/tcpdump/time_2106_overflow.pcapng", FUTURE),
            Map.entry("edge/tcpdump/time_2107.pcapng", FUTURE),
            Map.entry("edge/tcpdump/ipv6_mobility_1.pcap",
                    "tshark 4.0 never queues its ipv6 tap for Mobility Header (135) packets; they carry real"
                            + " bytes, so we count them"));

    private CorpusDifferences() {
    }

    /** The documented reason for {@code path} (relative to the corpus), or null when none. */
    static String reason(String path) {
        return KNOWN.get(path);
    }
}
