package io.siteflow.processor.topology;

import static io.siteflow.processor.topology.Flows.T0;
import static io.siteflow.processor.topology.Flows.flow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.siteflow.processor.query.AlertSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AlertsTest {
    @TempDir
    Path dir;
    Driver d;

    @BeforeEach
    void start() {
        d = new Driver(TopologyConfig.DEFAULTS.withBaseline(Duration.ofMinutes(10)).withAlertRepeat(Duration.ofMinutes(3)), dir).withSites(Flows.SITES_YAML);
    }

    @AfterEach
    void stop() {
        d.close();
    }

    @Test
    void raisesAnRttAlertForTheSitePairWhenTheWindowP95IsAboveTenMillisecondsEvenWithAMedianBelow() {
        d.send(flow().at(T0).bytes(5000, 0).rtt(6_000));
        d.send(flow().at(T0 + 1).bytes(5000, 0).rtt(6_500));
        d.send(flow().at(T0 + 2).bytes(5000, 0).rtt(12_000));
        d.send(flow().at(T0 + 70_000).bytes(1, 0));

        assertThat(d.alerts.readKeyValuesToList()).containsExactly(new KeyValue<>("region2|region1",
                "{\"type\":\"RTT\",\"key\":\"region2|region1\",\"timeMs\":" + (T0 + 60_000) + ",\"message\":"
                        + "\"RTT p95 12000 us between region2 and region1 (seen by 10.2.0.20) is above the 10 ms"
                        + " limit\"}"));
    }

    @Test
    void raisesTheRttAlertAgainstTheSiteModelsStricterLimitAndNamesIt() {
        d.close();
        d = new Driver(TopologyConfig.DEFAULTS.withBaseline(Duration.ofMinutes(10)), dir.resolve("limit"))
                .withSites(Flows.SITES_YAML.replace("defaults: none", "rttLimitMs: 5\ndefaults: none"));
        d.send(flow().at(T0).bytes(5000, 0).rtt(6_500));
        d.send(flow().at(T0 + 60_000).bytes(5000, 0).rtt(4_000));
        d.send(flow().at(T0 + 130_000).bytes(1, 0));

        assertThat(d.alerts.readValuesToList().stream().map(AlertJson::parse).toList())
                .extracting(Alert::type, Alert::key, Alert::message).containsExactly(
                        tuple("RTT", "region2|region1", "RTT p95 6500 us between region2 and region1 (seen by"
                                + " 10.2.0.20) is above the site model's 5 ms limit"),
                        tuple("CLEARED", "region2|region1", "RTT p95 4000 us between region2 and region1 (seen by"
                                + " 10.2.0.20) is within the site model's 5 ms limit again"));
    }

    @Test
    void raisesFailWhenThePairStartsFailingRepeatsItAfterTheIntervalAndSaysWhenItClears() {
        for (int minute = 0; minute < 4; minute++) {
            failingMinute(minute);
        }
        d.send(flow().at(T0 + 240_000).bytes(6000, 0));
        d.send(flow().at(T0 + 370_000).bytes(6000, 0));

        List<Alert> alerts = d.alerts.readValuesToList().stream().map(AlertJson::parse).toList();
        assertThat(alerts).extracting(Alert::type, Alert::key, Alert::timeMs).containsExactly(
                tuple("FAIL", "10.2.0.20", T0 + 60_000), tuple("FAIL", "10.2.0.20", T0 + 240_000),
                tuple("CLEARED", "10.2.0.20", T0 + 300_000));
        assertThat(alerts.get(1).message()).isEqualTo("wls3 (10.2.0.20) towards region1: FAIL, DB share 16.66% of "
                + "6000 cross-site bytes < threshold 90%; largest other category CLUSTER (5000 bytes) (repeated: still "
                + "so since the alert of " + Instant.ofEpochMilli(T0 + 60_000) + ")");
        assertThat(alerts.get(2).message()).isEqualTo("wls3 (10.2.0.20) towards region1: PASS again, DB share 100% of "
                + "6000 cross-site bytes >= threshold 90%");
    }

    @Test
    void anInsufficientWindowNeitherClearsNorRaisesAgain() {
        failingMinute(0);
        d.send(flow().at(T0 + 60_000).bytes(10, 0));
        failingMinute(2);
        d.send(flow().at(T0 + 190_000).bytes(6000, 0));

        assertThat(d.alerts.readValuesToList().stream().map(AlertJson::parse).toList())
                .extracting(Alert::type, Alert::timeMs).containsExactly(tuple("FAIL", T0 + 60_000));
    }

    @Test
    void tellsTheBaselineAndRepeatIntervalAndWhenTheBaselineEnds() {
        assertThat(d.queries().alertSettings()).isEqualTo(new AlertSettings(600_000, -1, 180_000));
        d.send(flow().at(T0 + 5_000).bytes(6000, 0));
        assertThat(d.queries().alertSettings()).isEqualTo(new AlertSettings(600_000, T0 + 605_000, 180_000));
    }

    /** A FAIL window: 1000 DB bytes and 5000 CLUSTER bytes in minute {@code m}. */
    private void failingMinute(int m) {
        d.send(flow().at(T0 + m * 60_000L).bytes(1000, 0));
        d.send(flow().at(T0 + m * 60_000L + 1).to("10.1.0.11", 7001).bytes(5000, 0));
    }

    @Test
    void raisesADbCallsAlertWhenTheRttTakesMoreOfTheCallMedianThanTheBudget() {
        d.close();
        d = new Driver(TopologyConfig.DEFAULTS.withBaseline(Duration.ofMinutes(10)), dir.resolve("budget"))
                .withSites(Flows.SITES_YAML.replace("defaults: none", "dbCallBudget: { networkShare: 0.5 }\ndefaults: none"));
        d.send(flow().at(T0).bytes(5000, 0).rtt(6_500).calls(10, 9_500));
        d.send(flow().at(T0 + 70_000).bytes(1, 0));

        assertThat(d.alerts.readKeyValuesToList()).containsExactly(new KeyValue<>("10.2.0.20",
                "{\"type\":\"DB_CALLS\",\"key\":\"10.2.0.20\",\"timeMs\":" + (T0 + 60_000) + ",\"message\":"
                        + "\"wls3 (10.2.0.20) towards region1: the RTT (6500 us) is 0.6844 of the DB call median (9497 us),"
                        + " above the budget 0.5\"}"));
    }

    @Test
    void raisesDbCallsOnceWhileTheBudgetStaysExceededAndSaysWhenItIsKeptAgain() {
        d.close();
        d = new Driver(TopologyConfig.DEFAULTS.withBaseline(Duration.ofMinutes(10)), dir.resolve("state"))
                .withSites(Flows.SITES_YAML.replace("defaults: none", "dbCallBudget: { networkShare: 0.5 }\ndefaults: none"));
        d.send(flow().at(T0).bytes(5000, 0).rtt(6_500).calls(10, 9_500));
        d.send(flow().at(T0 + 60_000).bytes(5000, 0).rtt(6_500).calls(10, 9_500));
        d.send(flow().at(T0 + 120_000).bytes(5000, 0).rtt(6_500).calls(10, 20_000));
        d.send(flow().at(T0 + 180_000).bytes(5000, 0));
        d.send(flow().at(T0 + 250_000).bytes(5000, 0));

        List<Alert> alerts = d.alerts.readValuesToList().stream().map(AlertJson::parse).toList();
        assertThat(alerts).extracting(Alert::type, Alert::key, Alert::timeMs).containsExactly(
                tuple("DB_CALLS", "10.2.0.20", T0 + 60_000), tuple("CLEARED", "10.2.0.20", T0 + 180_000));
        assertThat(alerts.get(1).message()).isEqualTo("wls3 (10.2.0.20) towards region1: the RTT (6500 us) is 0.3225"
                + " of the DB call median (20155 us), within the budget 0.5 again");
    }

    @Test
    void staysQuietWithoutABudgetOrWithinIt() {
        d.send(flow().at(T0).bytes(5000, 0).rtt(6_500).calls(10, 20_000));
        d.send(flow().at(T0 + 70_000).bytes(1, 0));

        assertThat(d.alerts.readKeyValuesToList()).isEmpty();
    }

    @Test
    void staysQuietAtExactlyTenMilliseconds() {
        d.send(flow().at(T0).bytes(5000, 0).rtt(10_000));
        d.send(flow().at(T0 + 70_000).bytes(1, 0));

        assertThat(d.alerts.readKeyValuesToList()).isEmpty();
    }

    @Test
    void raisesANewPeerAlertOnlyForPeersFirstSeenAfterTheBaseline() {
        d.send(flow().at(T0).to("10.1.0.10", 1521).bytes(5000, 0));
        d.send(flow().at(T0 + 60_000).to("10.1.0.11", 7001).bytes(5000, 0));
        d.send(flow().at(T0 + 600_000).to("10.1.0.10", 1521).bytes(5000, 0));
        d.send(flow().at(T0 + 600_001).to("10.1.0.12", 1521).bytes(5000, 0));
        d.send(flow().at(T0 + 600_002).to("10.1.0.12", 1521).bytes(5000, 0));

        var newPeers = d.alerts.readKeyValuesToList().stream().filter(kv -> kv.value.contains("NEW_PEER")).toList();
        assertThat(newPeers).containsExactly(new KeyValue<>("10.2.0.20",
                "{\"type\":\"NEW_PEER\",\"key\":\"10.2.0.20\",\"timeMs\":" + (T0 + 600_001) + ",\"message\":"
                        + "\"new cross-site peer of 10.2.0.20: DB with 10.1.0.12 port 1521, not seen in the"
                        + " baseline\"}"));
        assertThat(d.queries().alerts(10)).extracting(Alert::type).contains("NEW_PEER");
    }
}
