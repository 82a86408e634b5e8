package io.siteflow.agent.pipeline;

import java.util.Map;

/** Names of common LINKTYPE_ values for messages. */
final class LinkTypeNames {
    private static final Map<Integer, String> NAMES = Map.ofEntries(
            Map.entry(0, "NULL"), Map.entry(1, "ETHERNET"), Map.entry(6, "IEEE802_5"), Map.entry(7, "ARCNET_BSD"),
            Map.entry(8, "SLIP"), Map.entry(9, "PPP"), Map.entry(10, "FDDI"), Map.entry(50, "PPP_HDLC"),
            Map.entry(101, "RAW"), Map.entry(104, "C_HDLC"), Map.entry(105, "IEEE802_11"),
            Map.entry(107, "FRELAY"), Map.entry(108, "LOOP"), Map.entry(113, "LINUX_SLL"),
            Map.entry(123, "SUNATM"), Map.entry(127, "IEEE802_11_RADIOTAP"), Map.entry(129, "ARCNET_LINUX"),
            Map.entry(149, "USER2"), Map.entry(160, "USER13"), Map.entry(164, "JUNIPER_PPPOE_ATM"),
            Map.entry(178, "JUNIPER_ETHER"), Map.entry(182, "ERF"),
            Map.entry(192, "PPI"), Map.entry(195, "IEEE802_15_4_WITHFCS"), Map.entry(226, "IPNET"),
            Map.entry(228, "IPV4"), Map.entry(229, "IPV6"), Map.entry(231, "DBUS"), Map.entry(239, "NFLOG"),
            Map.entry(242, "IPOIB"), Map.entry(258, "PKTAP"), Map.entry(271, "VSOCK"), Map.entry(276, "LINUX_SLL2"),
            Map.entry(281, "ETW"), Map.entry(284, "ZBOSS_NCP"), Map.entry(285, "USB_2_0_LOW_SPEED"));

    private LinkTypeNames() {
    }

    static String name(int linkType) {
        return NAMES.getOrDefault(linkType, "LINKTYPE " + linkType);
    }
}
