package io.siteflow.cli.isolation;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.siteflow.cli.CommandRun;
import io.siteflow.synth.Endpoint;
import io.siteflow.synth.PcapWriter;
import io.siteflow.synth.T3Payloads;
import io.siteflow.synth.TcpConversation;
import io.siteflow.synth.TimedFrame;
import io.siteflow.synth.TnsPayloads;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code siteflow isolation check} on captures the test writes (traffic-synth's TCP conversations at a region-2 edge,
 * 6.5 ms to region 1): allowed TNS and T3 cluster traffic; then T3 on the database port and an unlisted host reaching
 * the database. Exit codes 0, 3, 2 and 1, the three formats, the messages, and the bytes and packets of each
 * violating edge equal to what the conversation put on the wire.
 */
class IsolationCheckCommandTest {
    static final long T0 = 1_764_000_000_000_000_000L;
    static final long MS = 1_000_000;
    static final long RTT = 6_500_000;
    private static final ObjectMapper JSON = new ObjectMapper();
    static final String SITES = """
            defaults: none
            sites:
              region1: { cidrs: [10.1.0.0/16] }
              region2: { cidrs: [10.2.0.0/16] }
            hosts:
              - { address: 10.1.0.10, name: db1, role: db }
              - { address: 10.1.0.21, name: wls1, role: app-server, cluster: soa_cluster }
              - { address: 10.2.0.20, name: wls3, role: app-server, cluster: soa_cluster }
            rules:
              - { name: oracle-net, category: DB, l7: [oracle-tns] }
              - { name: t3, category: CLUSTER, l7: [t3] }
              - { name: oracle-ports, category: DB, ports: [1521] }
            """;
    static final String POLICY = """
            isolation:
              groups:
                soa: { clusters: [soa_cluster] }
                db: { roles: [db] }
              deny:
                - { name: no-t3-to-db, from: any, to: db, l7: [t3] }
              allow:
                - { name: app-db, from: soa, to: db, categories: [DB], ports: [1521], l7: [oracle-tns] }
                - { name: soa-cluster, from: soa, to: soa, categories: [CLUSTER] }
            """;

    @TempDir
    static Path dir;
    static Path sites;
    static Path allowed;
    static Path violating;
    static TcpConversation tns;
    static TcpConversation cluster;
    static TcpConversation t3OnDbPort;
    static TcpConversation unlistedToDb;

    @BeforeAll
    static void writeCaptures() throws Exception {
        sites = dir.resolve("sites.yaml");
        Files.writeString(sites, SITES + POLICY);
        Random r = new Random(25);
        tns = conversation("10.2.0.20", 40001, "10.1.0.10", 1521, T0)
                .exchange(T0 + 20 * MS, true, TnsPayloads.connect("db1", 1521, "soa"), TnsPayloads.accept(), MS)
                .exchange(T0 + 40 * MS, true, TnsPayloads.data(r, 400, 3), TnsPayloads.data(r, 30_000, 6), 2 * MS)
                .close(T0 + 80 * MS, true);
        cluster = conversation("10.2.0.20", 40002, "10.1.0.21", 7001, T0 + 5 * MS)
                .exchange(T0 + 30 * MS, true, T3Payloads.CLIENT_HELLO, T3Payloads.SERVER_HELLO, MS)
                .close(T0 + 90 * MS, true);
        t3OnDbPort = conversation("10.2.0.20", 40003, "10.1.0.10", 1521, T0 + 10 * MS)
                .exchange(T0 + 30 * MS, true, T3Payloads.CLIENT_HELLO, T3Payloads.SERVER_HELLO, MS)
                .exchange(T0 + 50 * MS, true, T3Payloads.message(r, 900, T3Payloads.CLUSTER_CLASSES), new byte[0], 0)
                .close(T0 + 100 * MS, true);
        unlistedToDb = conversation("10.2.0.99", 40004, "10.1.0.10", 1521, T0 + 15 * MS)
                .exchange(T0 + 35 * MS, true, TnsPayloads.connect("db1", 1521, "soa"), TnsPayloads.accept(), MS)
                .close(T0 + 110 * MS, true);
        allowed = write("allowed.pcap", tns, cluster);
        violating = write("violating.pcap", tns, cluster, t3OnDbPort, unlistedToDb);
    }

    private static TcpConversation conversation(String client, int clientPort, String server, int port, long syn) {
        return TcpConversation.between(Endpoint.of(client, clientPort), Endpoint.of(server, port))
                .delays(0, RTT / 2).build().connect(syn);
    }

    static Path write(String name, TcpConversation... conversations) throws Exception {
        List<TimedFrame> frames = new ArrayList<>();
        for (TcpConversation c : conversations) {
            frames.addAll(c.frames());
        }
        frames.sort(Comparator.comparingLong(TimedFrame::tsNanos));
        Path file = dir.resolve(name);
        try (PcapWriter w = PcapWriter.create(file, PcapWriter.Resolution.NANOS, 65535)) {
            for (TimedFrame f : frames) {
                w.write(f.tsNanos(), f.frame());
            }
        }
        return file;
    }

    @Test
    void checksTheCapturesJsonLinesAsItChecksTheCapture() throws Exception {
        Path jsonl = dir.resolve("violating.jsonl");
        CommandRun capture = CommandRun.of("capture", "-r", violating.toString(), "--json=" + jsonl, "--agent",
                "check");
        assertThat(capture.exitCode()).as(capture.err()).isZero();

        CommandRun fromCapture = check(violating.toString(), "--sites", sites.toString(), "--format", "json");
        CommandRun fromJson = check(jsonl.toString(), "--sites", sites.toString(), "--format", "json");

        assertThat(fromJson.exitCode()).as(fromJson.err()).isEqualTo(3).isEqualTo(fromCapture.exitCode());
        assertThat(JSON.readTree(fromJson.out())).isEqualTo(JSON.readTree(fromCapture.out()));
    }

    private static CommandRun check(String... args) {
        List<String> all = new ArrayList<>(List.of("isolation", "check"));
        all.addAll(Arrays.asList(args));
        return CommandRun.of(all.toArray(String[]::new));
    }

    @Test
    void allowedTrafficOnlyExitsZeroWithEveryPairIsolated() throws Exception {
        CommandRun run = check(allowed.toString(), "--sites", sites.toString(), "--format", "json");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).isEmpty();
        JsonNode report = JSON.readTree(run.out());
        assertThat(report.get("violations")).isEmpty();
        assertThat(report.get("pairs")).hasSize(9).allSatisfy(p -> assertThat(p.get("state").asText())
                .isEqualTo("ISOLATED"));
        assertThat(report.get("from").asLong()).isEqualTo(T0 / MS);
        assertThat(report.get("to").asLong()).isEqualTo(lastFrameMs(tns, cluster) + 1);
    }

    @Test
    void t3OnTheDatabasePortAndAnUnlistedHostExitThreeWithEachEdgesExactBytesAndPackets() throws Exception {
        CommandRun run = check(violating.toString(), "--sites", sites.toString(), "--format", "json");

        assertThat(run.exitCode()).as(run.err()).isEqualTo(3);
        assertThat(run.err()).isEmpty();
        JsonNode v = JSON.readTree(run.out()).get("violations");
        assertThat(v).hasSize(2);
        JsonNode t3 = edge(v, "10.2.0.20");
        JsonNode unlisted = edge(v, "10.2.0.99");
        assertThat(t3.get("decision").asText()).isEqualTo("DENIED");
        assertThat(t3.get("rule").asText()).isEqualTo("no-t3-to-db");
        assertThat(t3.get("l7").asText()).isEqualTo("t3");
        assertThat(t3.get("serverPort").asInt()).isEqualTo(1521);
        assertThat(t3.get("fromGroups").toString()).isEqualTo("[\"soa\"]");
        assertThat(t3.get("toGroups").toString()).isEqualTo("[\"db\"]");
        assertThat(t3.get("category").asText()).isEqualTo("CLUSTER");
        assertThat(t3.get("nearestAllow").toString()).isEqualTo(
                "{\"rule\":\"soa-cluster\",\"failed\":[\"to: 10.1.0.10 (db) not in [soa]\"]}");
        // the same client, server and port also carry allowed TNS: the violation holds the T3 connection alone
        assertEvidence(t3, t3OnDbPort);
        assertThat(unlisted.get("decision").asText()).isEqualTo("UNLISTED");
        assertThat(unlisted.get("rule").asText()).isEmpty();
        assertThat(unlisted.get("fromGroups").toString()).isEqualTo("[\"unlisted\"]");
        assertThat(unlisted.get("nearestAllow").get("failed").toString())
                .isEqualTo("[\"from: 10.2.0.99 (unlisted) not in [soa]\"]");
        assertEvidence(unlisted, unlistedToDb);
        assertThat(pairStates(JSON.readTree(run.out()))).containsExactly(
                "unlisted->unlisted ISOLATED 0", "unlisted->soa ISOLATED 0",
                "unlisted->db NOT_ISOLATED " + ipBytes(unlistedToDb), "soa->unlisted ISOLATED 0",
                "soa->soa ISOLATED 0", "soa->db NOT_ISOLATED " + ipBytes(t3OnDbPort), "db->unlisted ISOLATED 0",
                "db->soa ISOLATED 0", "db->db ISOLATED 0");
    }

    @Test
    void textShowsTheOutcomeThePairsAndEachViolationWithItsFailedConditions() {
        CommandRun run = check(violating.toString(), "--sites", sites.toString());

        assertThat(run.exitCode()).isEqualTo(3);
        long bytes = ipBytes(t3OnDbPort) + ipBytes(unlistedToDb);
        assertThat(run.out()).startsWith("siteflow isolation check: NOT ISOLATED (2 violating edges, " + bytes
                        + " bytes)\n")
                .contains("  from \\ to  unlisted  soa")
                .contains("10.2.0.20 -> 10.1.0.10:1521/tcp  DENIED by no-t3-to-db\n"
                        + "     site region2, groups soa -> site region1, groups db\n")
                .contains("     nearest allow rule soa-cluster, failed:\n       to: 10.1.0.10 (db) not in [soa]\n")
                .contains("     nearest allow rule app-db, failed:\n       from: 10.2.0.99 (unlisted) not in [soa]\n")
                .contains("10.2.0.99 -> 10.1.0.10:1521/tcp  UNLISTED (no rule allows it; default deny)\n");
    }

    @Test
    void csvHasTheHeaderAndOneRowPerViolationAndOutWritesTheFile() throws Exception {
        Path out = dir.resolve("report.csv");
        CommandRun run = check(violating.toString(), "--sites", sites.toString(), "--format", "csv", "--out",
                out.toString());

        assertThat(run.exitCode()).isEqualTo(3);
        assertThat(run.out()).isEmpty();
        List<String> lines = Arrays.asList(Files.readString(out).split("\r\n"));
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).isEqualTo("decision,rule,client,server,serverPort,proto,category,l7,fromGroups,"
                + "toGroups,clientSite,serverSite,bytes,packets,flows,firstSeenMs,lastSeenMs,observer,nearestAllow,failed,"
                + "policy,model,periodFromMs,periodToMs");
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("DENIED,no-t3-to-db,10.2.0.20,10.1.0.10,1521,6,"
                + "CLUSTER,t3,soa,db,region2,region1," + ipBytes(t3OnDbPort) + "," + packets(t3OnDbPort) + ",1,"));
    }

    @Test
    void aHostAnsweringTheRemoteSiteInUnderAMillisecondIsAModelSuspectInJsonAndText() throws Exception {
        List<TcpConversation> conversations = new ArrayList<>(List.of(tns, cluster, t3OnDbPort));
        for (int i = 0; i < 3; i++) { // the model puts 10.2.0.40 in region2; it answers db1 in 0.2 ms
            conversations.add(TcpConversation.between(Endpoint.of("10.2.0.40", 41000 + i), Endpoint.of("10.1.0.10", 1521))
                    .delays(0, 100_000).build().connect(T0 + i * MS)
                    .exchange(T0 + (20 + i) * MS, true, TnsPayloads.connect("db1", 1521, "soa"), TnsPayloads.accept(), MS)
                    .close(T0 + (60 + i) * MS, true));
        }
        Path capture = write("suspect.pcap", conversations.toArray(TcpConversation[]::new));

        CommandRun json = check(capture.toString(), "--sites", sites.toString(), "--format", "json");
        CommandRun text = check(capture.toString(), "--sites", sites.toString());

        assertThat(json.exitCode()).as(json.err()).isEqualTo(3);
        assertThat(JSON.readTree(json.out()).get("modelSuspects").toString()).isEqualTo("["
                + "{\"address\":\"10.1.0.10\",\"site\":\"region1\",\"peerSite\":\"region2\",\"minRttMicros\":200,"
                + "\"referenceMicros\":6500,\"message\":\"10.1.0.10 (region1): handshake RTT to region2 peers 0.200 ms over "
                + "5 handshakes, under a quarter of the region1-region2 reference 6.500 ms: the model may put it or its "
                + "peers in the wrong site\"},"
                + "{\"address\":\"10.2.0.40\",\"site\":\"region2\",\"peerSite\":\"region1\",\"minRttMicros\":200,"
                + "\"referenceMicros\":6500,\"message\":\"10.2.0.40 (region2): handshake RTT to region1 peers 0.200 ms over "
                + "3 handshakes, under a quarter of the region2-region1 reference 6.500 ms: the model may put it or its "
                + "peers in the wrong site\"}]");
        assertThat(text.out()).contains("\n2 MODEL_SUSPECTs:\n  10.1.0.10 (region1): handshake RTT to region2 peers 0.200 ms");
    }

    @Test
    void severalCapturesAreOneObserversPeriod() throws Exception {
        Path rest = write("rest.pcap", t3OnDbPort, unlistedToDb);

        CommandRun both = check(allowed.toString(), rest.toString(), "--sites", sites.toString(), "--format", "json");

        assertThat(both.exitCode()).as(both.err()).isEqualTo(3);
        JsonNode report = JSON.readTree(both.out());
        assertThat(report.get("violations")).hasSize(2);
        assertThat(report.get("violations").get(0).get("observer").asText()).isEqualTo("check");
        assertThat(report.get("from").asLong()).isEqualTo(T0 / MS);
    }

    @Test
    void aCaptureCutShortExitsTwoAfterTheReportWithNoPairIsolated() throws Exception {
        byte[] whole = Files.readAllBytes(violating);
        Path cut = dir.resolve("cut.pcap");
        Files.write(cut, Arrays.copyOf(whole, whole.length - 20));

        CommandRun run = check(cut.toString(), "--sites", sites.toString(), "--format", "json");

        assertThat(run.exitCode()).isEqualTo(2);
        JsonNode report = JSON.readTree(run.out());
        assertThat(report.get("pairs")).extracting(p -> p.get("state").asText())
                .containsOnly("UNVERIFIED", "NOT_ISOLATED").contains("UNVERIFIED");
        assertThat(report.get("unverified")).hasSize(1);
        assertThat(report.get("unverified").get(0).get("reason").asText())
                .isEqualTo("input not read whole: " + run.err().strip());
        assertThat(run.err()).startsWith(cut.toString());
    }

    @Test
    void aModelWithoutAnIsolationBlockExitsTwoNamingTheFileAndTheBlock() throws Exception {
        Path noPolicy = dir.resolve("no-policy.yaml");
        Files.writeString(noPolicy, SITES);

        CommandRun run = check(violating.toString(), "--sites", noPolicy.toString());

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEqualTo(noPolicy + ": no isolation: block: nothing to check the captures against "
                + "(docs/RULES.md, \"Isolation policy\"; 'siteflow isolation propose' writes one from captures)\n");
    }

    @Test
    void aBadBlockExitsTwoWithItsPositionAndAMissingCaptureWithItsName() throws Exception {
        Path bad = dir.resolve("bad.yaml");
        Files.writeString(bad, SITES + POLICY.replace("to: db, l7: [t3]", "to: dbs, l7: [t3]"));
        Path missing = dir.resolve("missing.pcap");

        CommandRun badRun = check(violating.toString(), "--sites", bad.toString());
        CommandRun missingRun = check(violating.toString(), missing.toString(), "--sites", sites.toString());

        assertThat(badRun.exitCode()).isEqualTo(2);
        assertThat(badRun.out()).isEmpty();
        assertThat(badRun.err()).isEqualTo(bad + ":18:43: isolation.deny[0].to: unknown group \"dbs\", did you mean "
                + "\"db\"?\n");
        assertThat(missingRun.exitCode()).isEqualTo(2);
        assertThat(missingRun.out()).isEmpty();
        assertThat(missingRun.err()).isEqualTo(missing + ": no such file\n");
    }

    @Test
    void anOutFileThatCannotBeWrittenExitsOneWithTheCause() {
        Path out = dir.resolve("no-such-dir").resolve("report.json");

        CommandRun run = check(violating.toString(), "--sites", sites.toString(), "--out", out.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).isEqualTo("siteflow isolation check: --out " + out + ": cannot write: "
                + "NoSuchFileException " + out + "\n");
    }

    @Test
    void wrongUsageExitsSixtyFour() {
        CommandRun noSites = check(violating.toString());
        CommandRun badFormat = check(violating.toString(), "--sites", sites.toString(), "--format", "xml");

        assertThat(noSites.exitCode()).isEqualTo(64);
        assertThat(noSites.err()).startsWith("siteflow isolation check: Missing required option: '--sites=FILE'");
        assertThat(badFormat.exitCode()).isEqualTo(64);
        assertThat(badFormat.err()).startsWith("siteflow isolation check: Invalid value for option '--format': "
                + "expected one of [text, json, csv] (case-sensitive) but was 'xml'");
    }

    @Test
    void helpNamesTheFormatsAndEveryExitCode() {
        CommandRun run = check("--help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("Usage: siteflow isolation check", "CAPTURE...", "--sites FILE",
                        "--format FORMAT", "--out FILE", "docs/RULES.md")
                .contains("  0    nothing violates the policy")
                .contains("  1    failure, with its cause")
                .contains("  2    a capture or the site model not read whole")
                .contains("  3    something violates the policy (the report lists it)")
                .contains("  64   wrong usage");
    }

    private static JsonNode edge(JsonNode violations, String client) {
        for (JsonNode v : violations) {
            if (v.get("client").asText().equals(client)) {
                return v;
            }
        }
        throw new AssertionError("no violation from " + client + " in " + violations);
    }

    private static void assertEvidence(JsonNode v, TcpConversation c) {
        assertThat(v.get("bytes").asLong()).isEqualTo(ipBytes(c));
        assertThat(v.get("packets").asLong()).isEqualTo(packets(c));
        assertThat(v.get("flows").asLong()).isEqualTo(1);
        assertThat(v.get("firstSeenMs").asLong()).isEqualTo(c.frames().get(0).tsNanos() / MS);
        assertThat(v.get("lastSeenMs").asLong()).isEqualTo(c.frames().get(c.frames().size() - 1).tsNanos() / MS);
        assertThat(v.get("clientSite").asText()).isEqualTo("region2");
        assertThat(v.get("serverSite").asText()).isEqualTo("region1");
        assertThat(v.get("proto").asInt()).isEqualTo(6);
    }

    private static long ipBytes(TcpConversation c) {
        return c.fromClient().ipBytes() + c.fromServer().ipBytes();
    }

    private static long packets(TcpConversation c) {
        return c.fromClient().packets() + c.fromServer().packets();
    }

    private static List<String> pairStates(JsonNode report) {
        List<String> out = new ArrayList<>();
        report.get("pairs").forEach(p -> out.add(p.get("from").asText() + "->" + p.get("to").asText() + " "
                + p.get("state").asText() + " " + p.get("violatingBytes").asLong()));
        return out;
    }

    private static long lastFrameMs(TcpConversation... conversations) {
        long last = 0;
        for (TcpConversation c : conversations) {
            last = Math.max(last, c.frames().get(c.frames().size() - 1).tsNanos());
        }
        return last / MS;
    }
}
