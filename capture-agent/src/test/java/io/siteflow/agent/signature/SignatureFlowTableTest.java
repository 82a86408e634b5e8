package io.siteflow.agent.signature;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.agent.capture.file.CaptureFileReader;
import io.siteflow.agent.decode.DecodeStatus;
import io.siteflow.agent.decode.Packet;
import io.siteflow.agent.decode.PacketDecoder;
import io.siteflow.agent.flow.FlowTable;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.agent.flow.RecordFactory;
import io.siteflow.agent.flow.FlowSink;
import io.siteflow.model.FlowRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The detector behind the real flow table: records of corpus captures carry {@code l7} and {@code sni}. */
class SignatureFlowTableTest {

    private static final Path PROTO = Path.of(System.getProperty("siteflow.corpus", "../shared/corpus"), "proto");

    private static List<FlowRecord> records(String file) throws Exception {
        Path p = PROTO.resolve(file);
        Assumptions.assumeTrue(Files.isRegularFile(p), "corpus not found at " + p);
        List<FlowRecord> out = new ArrayList<>();
        FlowSink sink = new FlowSink() {
            @Override
            public void accept(FlowRecord r) {
                out.add(r);
            }

            @Override
            public void close() {
            }
        };
        FlowTable table = new FlowTable(FlowTableConfig.DEFAULTS, new RecordFactory("test", "file", "run"), sink,
                new SignatureL7Tracker());
        PacketDecoder decoder = new PacketDecoder();
        Packet packet = new Packet();
        try (CaptureFileReader reader = CaptureFileReader.open(p)) {
            reader.run((ts, linkType, data, offset, capLen, wireLen) -> {
                if (decoder.decode(linkType, data, offset, Math.min(capLen, 256), wireLen, packet) == DecodeStatus.IP) {
                    table.offer(packet, ts, wireLen, data);
                }
            });
        }
        table.flushAll();
        return out;
    }

    private static Set<String> l7(List<FlowRecord> records) {
        Set<String> names = new TreeSet<>();
        records.forEach(r -> names.add(r.l7WireName() + (r.sni() == null ? "" : " " + r.sni())));
        return names;
    }

    @Test
    void recordsOfAnOracleSessionSayOracleTns() throws Exception {
        assertThat(l7(records("ndpi-LGPL-3.0/oracle12.pcapng"))).containsExactly("oracle-tns");
    }

    @Test
    void recordsOfATlsSessionCarryTheServerName() throws Exception {
        assertThat(l7(records("zeek/tls/openjdk-25.0.2-zeek.org.pcap"))).containsExactly("tls zeek.org");
    }

    @Test
    void recordsOfDatabaseSessionsNameTheDatabase() throws Exception {
        assertThat(l7(records("arkime/postgres-good.pcap"))).containsExactly("postgresql");
        assertThat(l7(records("arkime/mysql-allow.pcap"))).containsExactly("mysql");
    }
}
