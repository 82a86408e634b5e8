package io.siteflow.agent.pipeline;

import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.Pcaps;

/**
 * Names of capture-file link types for messages, from libpcap's own table ({@code pcap_datalink_val_to_name},
 * through pcap4j): the {@code LINKTYPE_} value of a file is first turned into libpcap's {@code DLT_} value where
 * the two differ (100-103 on Linux), as libpcap's {@code linktype_to_dlt} does. A value libpcap has no name for,
 * or a host without libpcap, gives {@code "LINKTYPE n"}. Thread-safe.
 */
final class LinkTypeNames {
    private LinkTypeNames() {
    }

    static String name(int linkType) {
        int dlt = switch (linkType) {
            case 100 -> 11; // LINKTYPE_ATM_RFC1483 -> DLT_ATM_RFC1483
            case 101 -> 12; // LINKTYPE_RAW -> DLT_RAW (Linux)
            case 102 -> 15; // LINKTYPE_SLIP_BSDOS -> DLT_SLIP_BSDOS
            case 103 -> 16; // LINKTYPE_PPP_BSDOS -> DLT_PPP_BSDOS
            default -> linkType;
        };
        try {
            String name = Pcaps.dataLinkValToName(dlt);
            return name == null || name.isEmpty() ? unnamed(linkType) : name;
        } catch (PcapNativeException | LinkageError e) {
            return unnamed(linkType);
        }
    }

    private static String unnamed(int linkType) {
        return "LINKTYPE " + linkType;
    }
}
