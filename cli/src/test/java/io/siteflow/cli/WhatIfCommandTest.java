package io.siteflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

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
    void aMoveWithoutASiteIsAUsageError() {
        CommandRun run = CommandRun.of("whatif", "--sites", sites.toString(), "--move", "wls3", capture.toString());

        assertThat(run.exitCode()).isEqualTo(64);
        assertThat(run.err()).contains("--move wls3: expected SERVER=SITE");
    }
}
