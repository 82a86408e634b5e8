package io.siteflow.cli.input.flowlog;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.model.FlowRecord;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * AWS VPC Flow Logs, written here from the format AWS documents (default format version 2, custom formats named by
 * their header line): both directions joined into one record, NODATA skipped, REJECT left out, bad rows named.
 */
class AwsFlowLogReaderTest {
    private static final String DEFAULT_HEADER = "version account-id interface-id srcaddr dstaddr srcport dstport "
            + "protocol packets bytes start end action log-status";

    private final List<FlowRecord> records = new ArrayList<>();

    @Test
    void joinsBothDirectionsOfTheDefaultFormatIntoOneRecord() throws IOException {
        ReadResult r = read(DEFAULT_HEADER,
                "2 123456789012 eni-0a1 10.2.0.20 10.1.0.10 40112 1521 6 10 5200 1700000000 1700000030 ACCEPT OK",
                "2 123456789012 eni-0a1 10.1.0.10 10.2.0.20 1521 40112 6 8 12000 1700000001 1700000031 ACCEPT OK",
                "2 123456789012 eni-0a1 - - - - - - - 1700000000 1700000060 - NODATA",
                "2 123456789012 eni-0a1 198.51.100.7 10.2.0.20 55000 22 6 3 180 1700000005 1700000005 REJECT OK");

        assertThat(r.problems()).isEmpty();
        assertThat(r.notes()).containsExactly("flow.log: 1 REJECT rows (180 bytes) left out of the totals");
        assertThat(r.records()).isEqualTo(1);
        assertThat(r.packets()).isEqualTo(18);
        FlowRecord f = records.get(0);
        assertThat(List.of(f.src(), f.srcPort(), f.dst(), f.dstPort(), f.proto()))
                .containsExactly("10.2.0.20", 40112, "10.1.0.10", 1521, 6);
        assertThat(List.of(f.bytes(), f.packets(), f.rbytes(), f.rpackets())).containsExactly(5200L, 10L, 12000L, 8L);
        assertThat(List.of(f.start(), f.end())).containsExactly(1_700_000_000_000L, 1_700_000_031_000L);
        assertThat(f.iface()).isEqualTo("eni-0a1");
        assertThat(f.agent()).isEqualTo("audit");
        assertThat(f.rttMicros()).isNull();
        assertThat(f.l7WireName()).isNull();
        assertThat(f.isFinal()).isTrue();
    }

    @Test
    void readsTheDefaultFormatWithoutHeader() throws IOException {
        ReadResult r = read(
                "2 123456789012 eni-0a1 10.1.0.10 10.2.0.20 1521 40112 6 8 12000 1700000001 1700000031 ACCEPT OK");

        assertThat(r.problems()).isEmpty();
        FlowRecord f = records.get(0);
        assertThat(List.of(f.src(), f.srcPort(), f.rbytes(), f.bytes()))
                .containsExactly("10.2.0.20", 40112, 12000L, 0L);
    }

    @Test
    void readsACustomFormatByItsHeaderAndTakesTheInitiatorFromTheTcpFlags() throws IOException {
        // ports 5000 and 6000 are no service ports: the port rule alone would make 6000's end the client
        ReadResult r = read("start end srcaddr dstaddr srcport dstport protocol bytes packets tcp-flags interface-id",
                "1700000000 1700000009 10.2.0.20 10.1.0.30 5000 6000 6 900 9 3 eni-b",
                "1700000000 1700000009 10.1.0.30 10.2.0.20 6000 5000 6 400 4 19 eni-b");

        assertThat(r.problems()).isEmpty();
        FlowRecord f = records.get(0);
        assertThat(List.of(f.src(), f.srcPort(), f.dst(), f.dstPort())).containsExactly("10.2.0.20", 5000, "10.1.0.30",
                6000);
        assertThat(List.of(f.bytes(), f.rbytes(), f.forward().tcpFlags(), f.reverse().tcpFlags()))
                .containsExactly(900L, 400L, 3, 19);
        assertThat(f.isFinal()).isTrue();
    }

    @Test
    void namesEveryMalformedRowByLineAndFieldAndReadsTheRest() throws IOException {
        ReadResult r = read(DEFAULT_HEADER,
                "2 123456789012 eni-0a1 10.2.0.20 10.1.0.10 40112 1521 6 10 lots 1700000000 1700000030 ACCEPT OK",
                "2 123456789012 eni-0a1 10.2.0.999 10.1.0.10 40112 1521 6 10 5200 1700000000 1700000030 ACCEPT OK",
                "2 123456789012 eni-0a1 10.2.0.20 10.1.0.10 40112 70000 6 10 5200 1700000000 1700000030 ACCEPT OK",
                "2 123456789012 eni-0a1 10.2.0.20 10.1.0.10 40112 1521 6 - 5200 1700000000 1700000030 ACCEPT OK",
                "2 123456789012 eni-0a1 10.2.0.20 10.1.0.10 40112 1521 6 10 5200 1700000000 ACCEPT OK",
                "2 123456789012 eni-0a1 - - - - - - - 1700000000 1700000060 - SKIPDATA",
                "2 123456789012 eni-0a1 10.2.0.21 10.1.0.10 40113 1521 6 7 700 1700000000 1700000030 ACCEPT OK");

        assertThat(r.problems()).containsExactly(
                "flow.log:2: bytes: \"lots\" is not a number",
                "flow.log:3: srcaddr: \"10.2.0.999\" is not an IP address",
                "flow.log:4: dstport: 70000 is not 0-65535",
                "flow.log:5: packets: missing",
                "flow.log:6: row: 13 fields, the format has 14",
                "flow.log:7: log-status: SKIPDATA: AWS skipped records in this capture window; the totals miss them");
        assertThat(records).hasSize(1);
        assertThat(List.of(records.get(0).src(), records.get(0).bytes())).containsExactly("10.2.0.21", 700L);
    }

    @Test
    void aHeaderWithoutARequiredFieldIsNamedAndTheFileNotRead() throws IOException {
        ReadResult typo = read("version srcadr dstaddr srcport dstport protocol packets bytes start end",
                "2 10.2.0.20 10.1.0.10 40112 1521 6 10 5200 1700000000 1700000030");
        ReadResult missing = read("version srcaddr dstaddr srcport dstport protocol packets start end",
                "2 10.2.0.20 10.1.0.10 40112 1521 6 10 1700000000 1700000030");

        assertThat(typo.problems()).containsExactly("flow.log:1: header: no srcaddr (a custom format needs srcaddr "
                + "dstaddr srcport dstport protocol packets bytes start end); the file is not read");
        assertThat(missing.problems()).containsExactly("flow.log:1: header: no bytes (a custom format needs srcaddr "
                + "dstaddr srcport dstport protocol packets bytes start end); the file is not read");
        assertThat(records).isEmpty();
    }

    @Test
    void takesThePacketsAddressesWhenTheFormatLogsThem() throws IOException {
        read("srcaddr dstaddr srcport dstport protocol packets bytes start end pkt-srcaddr pkt-dstaddr",
                "10.2.0.5 10.1.0.10 40112 1521 6 10 5200 1700000000 1700000030 10.2.7.20 -");

        assertThat(List.of(records.get(0).src(), records.get(0).dst())).containsExactly("10.2.7.20", "10.1.0.10");
    }

    @Test
    void countsAConversationLoggedOnBothEndsInterfacesOnce() throws IOException {
        ReadResult r = read(DEFAULT_HEADER,
                "2 1 eni-client 10.0.1.5 10.0.2.6 40000 5432 6 4 400 1700000000 1700000010 ACCEPT OK",
                "2 1 eni-server 10.0.1.5 10.0.2.6 40000 5432 6 4 400 1700000000 1700000010 ACCEPT OK",
                "2 1 eni-server 10.0.2.6 10.0.1.5 5432 40000 6 3 900 1700000000 1700000010 ACCEPT OK",
                "2 1 eni-client 10.0.2.6 10.0.1.5 5432 40000 6 3 900 1700000000 1700000010 ACCEPT OK");

        assertThat(r.notes()).containsExactly(
                "flow.log: 2 rows of conversations another interface logged first left out (counted once)");
        assertThat(records).hasSize(1);
        FlowRecord f = records.get(0);
        assertThat(List.of(f.iface(), f.src(), f.bytes(), f.rbytes())).containsExactly("eni-client", "10.0.1.5", 400L,
                900L);
    }

    @Test
    void startsANewRecordOnceTheActiveTimeoutHasPassed() throws IOException {
        read(DEFAULT_HEADER,
                "2 1 eni-a 10.2.0.20 10.1.0.10 40112 1521 6 10 1000 1700000000 1700000050 ACCEPT OK",
                "2 1 eni-a 10.2.0.20 10.1.0.10 40112 1521 6 20 2000 1700000060 1700000110 ACCEPT OK");

        assertThat(records).extracting(FlowRecord::bytes).containsExactly(1000L, 2000L);
        assertThat(records).extracting(FlowRecord::isFinal).containsExactly(false, true);
    }

    @Test
    void aConversationTenMinutesOlderThanTheNewestRowGoesOutBeforeTheEndOfTheFile() {
        FlowLogJoiner joiner = new FlowLogJoiner("audit", "audit-flow.log", records::add);
        joiner.add(new FlowLogRow("eni-a", 6, "10.2.0.20", 40112, "10.1.0.10", 1521, 100, 1, 0, 0, 1000));
        joiner.add(new FlowLogRow("eni-a", 6, "10.2.0.21", 40113, "10.1.0.10", 1521, 200, 2, 0, 599_999, 600_000));

        assertThat(records).isEmpty();

        joiner.add(new FlowLogRow("eni-a", 6, "10.2.0.22", 40114, "10.1.0.10", 1521, 300, 3, 0, 600_000, 600_500));

        assertThat(records).extracting(FlowRecord::bytes).containsExactly(100L);
        joiner.flush();
        assertThat(records).extracting(FlowRecord::bytes).containsExactly(100L, 200L, 300L);
        assertThat(joiner.packets()).isEqualTo(6);
    }

    private ReadResult read(String... lines) throws IOException {
        return AwsFlowLogReader.read("flow.log", new BufferedReader(new StringReader(String.join("\n", lines) + "\n")),
                new FlowLogJoiner("audit", "audit-flow.log", records::add));
    }
}
