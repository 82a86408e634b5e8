package io.siteflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code siteflow whatif} on the DB call capture of {@link DbCallAuditTest}: moving wls3 next to its database. */
class WhatIfCommandTest {
    @TempDir
    static Path dir;
    static Path capture;
    static Path sites;

    @BeforeAll
    static void synthesiseCapture() throws Exception {
        capture = dir.resolve("db-calls.pcap");
        DbCallAuditTest.write(capture);
        sites = dir.resolve("sites.yaml");
        Files.copy(Path.of(System.getProperty("siteflow.root", "..")).resolve("deploy/conf/sites.yaml"), sites);
    }

    @Test
    void movingWls3ToTheDatabasesRegionStopsEveryCallPayingTheInterRegionRtt() {
        CommandRun run = CommandRun.of("whatif", "--sites", sites.toString(), "--move", "wls3=region1",
                capture.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        int calls = DbCallAuditTest.CONNECTIONS * DbCallAuditTest.CALLS_EACH;
        assertThat(run.out()).startsWith("what if wls3 (10.2.0.20) moved from region2 to region1\n")
                .contains("  DB calls: " + calls + " would stop and 0 would start paying 6.500 ms of RTT",
                        "  8 flows would become local:\n",
                        "  0 flows would become cross-site\n",
                        "  region1 <-> region2: 6.500 ms, at most 650 km\n");
        assertThat(run.out()).containsPattern("cross-site bytes: [1-9][0-9]* now, 0 after\n");
    }

    @Test
    void jsonGivesTheSameAnswerAsOneObject() throws Exception {
        CommandRun run = CommandRun.of("whatif", "--sites", sites.toString(), "--move", "wls3=region1", "--json",
                capture.toString());

        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonNode j = new ObjectMapper().readTree(run.out());
        int calls = DbCallAuditTest.CONNECTIONS * DbCallAuditTest.CALLS_EACH;
        assertThat(run.out()).endsWith("}\n").startsWith("{\"server\":\"wls3\",\"address\":\"10.2.0.20\","
                + "\"fromSite\":\"region2\",\"toSite\":\"region1\",\"crossBytes\":{\"before\":"
                + j.at("/becomeLocal/bytes").asLong() + ",\"after\":0},\"becomeLocal\":{\"flows\":8,");
        assertThat(j.at("/becomeRemote").toString()).isEqualTo("{\"flows\":0,\"bytes\":0,\"largest\":[]}");
        assertThat(j.at("/dbCalls/stopPaying").asLong()).isEqualTo(calls);
        assertThat(j.at("/dbCalls/startPaying").asLong()).isZero();
        assertThat(j.at("/dbCalls/rttSavedMicros").asLong()).isEqualTo(6_500);
        assertThat(j.at("/links/0").toString()).isEqualTo("{\"siteA\":\"region1\",\"siteB\":\"region2\","
                + "\"rttP50Micros\":6500,\"fibreKmAtMost\":650,\"aboveLimit\":false}");
        assertThat(j.at("/becomeLocal/largest").size()).isEqualTo(8);
    }

    @Test
    void jsonEqualsFileWritesTheSameJsonToTheFile() throws Exception {
        Path out = dir.resolve("whatif.json");
        CommandRun toFile = CommandRun.of("whatif", "--sites", sites.toString(), "--move", "wls3=region1",
                "--json=" + out, capture.toString());
        CommandRun toStdout = CommandRun.of("whatif", "--sites", sites.toString(), "--move", "wls3=region1",
                capture.toString(), "--json");

        assertThat(toFile.exitCode()).as(toFile.err()).isZero();
        assertThat(toFile.out()).isEmpty();
        assertThat(Files.readString(out)).isEqualTo(toStdout.out()).startsWith("{\"server\":\"wls3\",");
    }

    @Test
    void aJsonFileThatCannotBeWrittenFailsNamingIt() {
        Path out = dir.resolve("no-such-dir").resolve("whatif.json");
        CommandRun run = CommandRun.of("whatif", "--sites", sites.toString(), "--move", "wls3=region1",
                "--json=" + out, capture.toString());

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).startsWith("--json=" + out + ": cannot write: java.nio.file.NoSuchFileException: "
                + out);
    }

    @Test
    void aMoveWithoutASiteIsAUsageError() {
        CommandRun run = CommandRun.of("whatif", "--sites", sites.toString(), "--move", "wls3", capture.toString());

        assertThat(run.exitCode()).isEqualTo(64);
        assertThat(run.err()).contains("--move wls3: expected SERVER=SITE");
    }
}
