package io.siteflow.agent.signature;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.agent.decode.Packet;
import org.junit.jupiter.api.Test;

class SignatureL7TrackerTest {

    private final SignatureL7Tracker tracker = new SignatureL7Tracker();

    private static Packet tcpPayload(int offset, int length) {
        Packet p = new Packet();
        p.protocol = 6;
        p.hasPorts = true;
        p.payloadOffset = offset;
        p.payloadCaptured = length;
        p.payloadLength = length;
        return p;
    }

    @Test
    void namesTheProtocolAndHandsTheServerNameOutOnce() {
        byte[] hello = Payloads.clientHello("wls2.example.com", 4);
        byte[] frame = Payloads.of().zeros(66).bytes(hello).build();
        int state = tracker.initialState();
        assertThat(tracker.protocol(state)).isNull();
        assertThat(tracker.done(state)).isFalse();

        state = tracker.inspect(state, true, tcpPayload(66, hello.length), frame);

        assertThat(tracker.protocol(state)).isEqualTo("tls");
        assertThat(tracker.done(state)).isTrue();
        assertThat(tracker.lastSni()).isEqualTo("wls2.example.com");
        byte[] reply = Payloads.serverHello();
        tracker.inspect(state, false, tcpPayload(0, reply.length), reply);
        assertThat(tracker.lastSni()).isNull();
    }

    @Test
    void reportsT3JmsByItsWireName() {
        byte[] hello = Payloads.t3Hello();
        byte[] jms = Payloads.t3Message("weblogic.jms.common.DestinationImpl");

        int state = tracker.inspect(tracker.initialState(), true, tcpPayload(0, hello.length), hello);
        assertThat(tracker.protocol(state)).isEqualTo("t3");
        state = tracker.inspect(state, false, tcpPayload(0, jms.length), jms);

        assertThat(tracker.protocol(state)).isEqualTo("t3-jms");
        assertThat(tracker.lastSni()).isNull();
    }

    /** Issue 17 defect 9: {@code --no-sni} leaves the one payload-derived field out; the protocol stays. */
    @Test
    void handsNoServerNameOutWithoutSni() {
        SignatureL7Tracker noSni = new SignatureL7Tracker(false);
        byte[] hello = Payloads.clientHello("wls2.example.com", 4);

        int state = noSni.inspect(noSni.initialState(), true, tcpPayload(0, hello.length), hello);

        assertThat(noSni.protocol(state)).isEqualTo("tls");
        assertThat(noSni.lastSni()).isNull();
    }
}
