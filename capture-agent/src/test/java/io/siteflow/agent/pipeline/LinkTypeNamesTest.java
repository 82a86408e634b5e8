package io.siteflow.agent.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Link-type names as libpcap 1.10 names them (pcap_datalink_val_to_name), the ones the issue found wrong first. */
class LinkTypeNamesTest {
    @Test
    void namesLinkTypesFromLibpcapsTable() {
        assertThat(LinkTypeNames.name(281)).isEqualTo("DSA_TAG_BRCM");
        assertThat(LinkTypeNames.name(284)).isEqualTo("DSA_TAG_DSA");
        assertThat(LinkTypeNames.name(182)).isEqualTo("MFR");
        assertThat(LinkTypeNames.name(1)).isEqualTo("EN10MB");
        assertThat(LinkTypeNames.name(129)).isEqualTo("ARCNET_LINUX");
        assertThat(LinkTypeNames.name(276)).isEqualTo("LINUX_SLL2");
    }

    @Test
    void turnsTheFileValueIntoLibpcapsWhereTheyDiffer() {
        assertThat(LinkTypeNames.name(101)).isEqualTo("RAW");
    }

    @Test
    void aValueLibpcapDoesNotNameIsGivenAsANumber() {
        assertThat(LinkTypeNames.name(300)).isEqualTo("LINKTYPE 300");
    }

    @Test
    void unsupportedLinkTypeMessageNamesTheSourceTheValueAndTheName() {
        assertThat(Pipeline.unsupported("x.pcap", 281))
                .isEqualTo("x.pcap: link type 281 is not supported (DSA_TAG_BRCM): its packets are not counted");
    }
}
