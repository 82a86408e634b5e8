package io.siteflow.agent.signature;

import static io.siteflow.model.L7Protocol.GIOP;
import static io.siteflow.model.L7Protocol.HTTP;
import static io.siteflow.model.L7Protocol.MYSQL;
import static io.siteflow.model.L7Protocol.ORACLE_TNS;
import static io.siteflow.model.L7Protocol.POSTGRESQL;
import static io.siteflow.model.L7Protocol.TLS;
import static io.siteflow.model.L7Protocol.UNKNOWN;
import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.agent.signature.CorpusFlows.Result;
import io.siteflow.model.L7Protocol;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs the detector over public captures in {@code ${siteflow.corpus}/proto}, once with the whole
 * packets and once cut to the agent's default snap length of 256 bytes.
 */
class SignatureCorpusTest {

    private static final Path CORPUS = Path.of(System.getProperty("siteflow.corpus", "../shared/corpus"));
    private static final int WHOLE = 65535;
    private static final int SNAPLEN = 256;

    private static Map<String, Result> flows(String file, int snaplen) throws Exception {
        Path p = CORPUS.resolve("proto").resolve(file);
        Assumptions.assumeTrue(Files.isRegularFile(p), "corpus not found at " + p);
        return CorpusFlows.detect(p, snaplen);
    }

    /** Flows per detected protocol, for both snap lengths (they must agree). */
    private static Map<L7Protocol, Long> protocols(String file) throws Exception {
        Map<L7Protocol, Long> whole = count(flows(file, WHOLE));
        assertThat(count(flows(file, SNAPLEN))).as("%s cut to %d bytes", file, SNAPLEN).isEqualTo(whole);
        return whole;
    }

    private static Map<L7Protocol, Long> count(Map<String, Result> flows) {
        return flows.values().stream()
                .collect(Collectors.groupingBy(Result::protocol, TreeMap::new, Collectors.counting()));
    }

    private static List<String> serverNames(String file, int snaplen) throws Exception {
        return flows(file, snaplen).values().stream().map(Result::sni).filter(s -> !s.isEmpty()).toList();
    }

    @Test
    void findsOracleTns() throws Exception {
        assertThat(protocols("ndpi-LGPL-3.0/oracle12.pcapng")).isEqualTo(Map.of(ORACLE_TNS, 1L));
        assertThat(protocols("arkime/oracle.pcap")).isEqualTo(Map.of(ORACLE_TNS, 1L));
    }

    @Test
    void findsPostgresqlIncludingSessionsThatSwitchToTls() throws Exception {
        assertThat(protocols("ndpi-LGPL-3.0/pgsql.pcap")).isEqualTo(Map.of(POSTGRESQL, 6L));
        assertThat(protocols("ndpi-LGPL-3.0/pgsql2.pcapng")).isEqualTo(Map.of(POSTGRESQL, 1L));
        assertThat(protocols("arkime/postgres-good.pcap")).isEqualTo(Map.of(POSTGRESQL, 1L));
        assertThat(protocols("zeek/postgresql/psql-login.pcap")).isEqualTo(Map.of(POSTGRESQL, 1L));
        assertThat(protocols("suricata-verify/pgsql/pgsql-upgrade-tls/input.pcap")).isEqualTo(Map.of(POSTGRESQL, 2L));
    }

    @Test
    void findsMysqlIncludingRefusedClients() throws Exception {
        assertThat(protocols("ndpi-LGPL-3.0/mysql.pcapng")).isEqualTo(Map.of(MYSQL, 2L));
        assertThat(protocols("arkime/mysql-allow.pcap")).isEqualTo(Map.of(MYSQL, 1L));
        assertThat(protocols("zeek/mysql/auth.pcap")).isEqualTo(Map.of(MYSQL, 13L));
    }

    @Test
    void findsGiopOverTcpAndMiopOverUdp() throws Exception {
        Map<String, Result> flows = flows("ndpi-LGPL-3.0/corba.pcap", SNAPLEN);

        assertThat(flows.entrySet().stream().filter(e -> e.getValue().protocol() == GIOP)
                .map(e -> e.getKey().substring(0, 3)).sorted().toList()).containsExactly("tcp", "udp");
    }

    @Test
    void findsTlsAndTheServerNames() throws Exception {
        assertThat(protocols("arkime/tls13.pcap")).isEqualTo(Map.of(TLS, 1L));
        assertThat(serverNames("arkime/tls13.pcap", SNAPLEN)).containsExactly("blog.cloudflare.com");
        assertThat(serverNames("zeek/tls/openjdk-25.0.2-zeek.org.pcap", SNAPLEN)).containsExactly("zeek.org");
        assertThat(serverNames("zeek/tls/client-certificate.pcap", SNAPLEN)).containsExactly("certauth.idrix.fr");
        assertThat(serverNames("arkime/curl-enabled-tls13.pcap", SNAPLEN)).containsExactly("enabled.tls13.com");
        assertThat(protocols("zeek/tls/tls1.2.pcap")).isEqualTo(Map.of(TLS, 1L));
        assertThat(serverNames("zeek/tls/tls1.2.pcap", WHOLE)).isEmpty();
    }

    @Test
    void aServerNamePastTheSnapLengthIsLostButTlsIsNot() throws Exception {
        String file = "zeek/ldap/ldap-starttls.pcap";

        assertThat(serverNames(file, WHOLE)).containsExactly("ubuntu-01.example.com");
        assertThat(serverNames(file, SNAPLEN)).isEmpty();
        assertThat(protocols(file)).isEqualTo(Map.of(TLS, 1L));
    }

    @Test
    void findsHttpByItsBytesNotByItsPort() throws Exception {
        assertThat(protocols("zeek/http/get.pcap")).isEqualTo(Map.of(HTTP, 1L));
        assertThat(protocols("arkime/http-simple-get.pcap")).isEqualTo(Map.of(HTTP, 1L));
        assertThat(protocols("arkime/v6-http.pcap")).containsEntry(HTTP, 1L);
        assertThat(protocols("zeek/postgresql/http-on-port-5432.pcap")).isEqualTo(Map.of(HTTP, 1L));
        assertThat(protocols("zeek/postgresql/mysql-on-port-5432.pcap")).isEqualTo(Map.of(MYSQL, 1L));
    }

    @ParameterizedTest
    @ValueSource(strings = {"arkime/kafka.pcap", "arkime/mongo.pcap", "arkime/cassandra1.pcap", "arkime/tds7.pcap",
        "ndpi-LGPL-3.0/amqp.pcap", "ndpi-LGPL-3.0/mssql_tds.pcap", "ndpi-LGPL-3.0/drda_db2.pcap",
        "ndpi-LGPL-3.0/jrmi.pcap", "ndpi-LGPL-3.0/openwire.pcapng", "zeek/redis/pubsub.pcap", "zeek/smb/smb3.pcap",
        "zeek/tls/dtls1_2.pcap", "zeek/quic/quicv2-http3-443.pcap"})
    void findsNothingInOtherProtocols(String file) throws Exception {
        assertThat(protocols(file).keySet()).containsOnly(UNKNOWN);
    }

    @Test
    void readsEveryProtocolCaptureWithoutErrors() throws Exception {
        Path proto = CORPUS.resolve("proto");
        Assumptions.assumeTrue(Files.isDirectory(proto), "corpus not found at " + proto);
        List<Path> files;
        try (Stream<Path> walk = Files.walk(proto)) {
            files = walk.filter(Files::isRegularFile).sorted().toList();
        }
        long flows = 0;
        for (Path f : files) {
            for (int snaplen : new int[] {WHOLE, SNAPLEN, 60}) {
                flows += CorpusFlows.detect(f, snaplen).size();
            }
        }
        assertThat(files).isNotEmpty();
        assertThat(flows).isPositive();
    }
}
