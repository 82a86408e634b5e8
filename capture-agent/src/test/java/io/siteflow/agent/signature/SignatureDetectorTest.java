package io.siteflow.agent.signature;

import static io.siteflow.agent.signature.Payloads.of;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.siteflow.agent.decode.Packet;
import io.siteflow.model.L7Protocol;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SignatureDetectorTest {

    private static final int TCP = 6;
    private static final int UDP = 17;
    private final SignatureDetector detector = new SignatureDetector();

    private int first(boolean fromInitiator, int proto, byte[] payload) {
        return detector.inspect(SignatureState.INITIAL, fromInitiator, proto, payload, 0, payload.length,
                payload.length);
    }

    private L7Protocol tcp(byte[] payload) {
        return SignatureState.protocol(first(true, TCP, payload));
    }

    /** The payload as a capture that kept only its first {@code captured} bytes sees it. */
    private L7Protocol truncated(byte[] payload, int captured) {
        byte[] buf = Arrays.copyOf(payload, captured);
        return SignatureState.protocol(detector.inspect(SignatureState.INITIAL, true, TCP, buf, 0, captured,
                payload.length));
    }

    // ----- Oracle TNS -----

    @Test
    void detectsTnsConnectOfAnOracle12Client() {
        int state = first(true, TCP, Payloads.tnsConnect(315, 300));

        assertThat(SignatureState.protocol(state)).isEqualTo(L7Protocol.ORACLE_TNS);
        assertThat(SignatureState.isDone(state)).isTrue();
        assertThat(SignatureState.packetsSeen(state, true)).isEqualTo(1);
        assertThat(SignatureState.packetsSeen(state, false)).isZero();
    }

    @Test
    void tnsConnectNeedsTwelveBytesOrTheConnectData() {
        byte[] connect = Payloads.tnsConnect(315, 300);

        assertThat(truncated(connect, 11)).isEqualTo(L7Protocol.UNKNOWN);
        assertThat(truncated(connect, 12)).isEqualTo(L7Protocol.ORACLE_TNS);
        byte[] oddVersion = Payloads.tnsConnect(0x0400, 0x0400);
        assertThat(truncated(oddVersion, 80)).isEqualTo(L7Protocol.UNKNOWN);
        assertThat(truncated(oddVersion, 83)).isEqualTo(L7Protocol.ORACLE_TNS);
    }

    @Test
    void detectsTnsAcceptFromTheResponder() {
        int state = first(false, TCP, Payloads.tnsAccept());

        assertThat(SignatureState.protocol(state)).isEqualTo(L7Protocol.ORACLE_TNS);
        assertThat(SignatureState.packetsSeen(state, false)).isEqualTo(1);
    }

    @Test
    void detectsTnsDataPacketsOfAConnectionOpenedBeforeCapture() {
        assertThat(tcp(Payloads.tnsData32(0x20, 154))).isEqualTo(L7Protocol.ORACLE_TNS);
        assertThat(tcp(Payloads.tnsData32(0x00, 16))).isEqualTo(L7Protocol.ORACLE_TNS);
        assertThat(tcp(Payloads.tnsData16(30))).isEqualTo(L7Protocol.ORACLE_TNS);
        assertThat(truncated(Payloads.tnsData32(0x00, 1400), 8)).isEqualTo(L7Protocol.ORACLE_TNS);
    }

    @Test
    void rejectsTnsHeadersThatDoNotFitThePayload() {
        byte[] data = Payloads.tnsData32(0x00, 100);
        assertThat(SignatureState.protocol(detector.inspect(0, true, TCP, data, 0, data.length, data.length + 1)))
                .isEqualTo(L7Protocol.UNKNOWN);
        byte[] badType = data.clone();
        badType[4] = 20;
        assertThat(tcp(badType)).isEqualTo(L7Protocol.UNKNOWN);
        byte[] headerChecksum = data.clone();
        headerChecksum[7] = 1;
        assertThat(tcp(headerChecksum)).isEqualTo(L7Protocol.UNKNOWN);
        assertThat(truncated(data, 7)).isEqualTo(L7Protocol.UNKNOWN);
    }

    // ----- WebLogic T3 and JMS -----

    @Test
    void detectsT3HandshakeInBothDirections() {
        assertThat(tcp(Payloads.t3Hello())).isEqualTo(L7Protocol.T3);
        assertThat(SignatureState.protocol(first(false, TCP, Payloads.t3Helo()))).isEqualTo(L7Protocol.T3);
        assertThat(truncated(Payloads.t3Hello(), 4)).isEqualTo(L7Protocol.T3);
        assertThat(truncated(Payloads.t3Hello(), 3)).isEqualTo(L7Protocol.UNKNOWN);
        assertThat(tcp(of().ascii("t3 x\n").build())).isEqualTo(L7Protocol.UNKNOWN);
    }

    @Test
    void upgradesT3ToT3JmsWhenALaterMessageNamesAWeblogicJmsClass() {
        int state = first(true, TCP, Payloads.t3Hello());
        assertThat(SignatureState.isDone(state)).isFalse();
        state = inspect(state, false, Payloads.t3Helo());
        state = inspect(state, true, Payloads.t3Message("weblogic.rjvm.JVMID"));
        assertThat(SignatureState.protocol(state)).isEqualTo(L7Protocol.T3);
        assertThat(SignatureState.isDone(state)).isFalse();

        state = inspect(state, false, Payloads.t3Message("weblogic.jms.client.JMSConnectionFactory"));

        assertThat(SignatureState.protocol(state)).isEqualTo(L7Protocol.T3_JMS);
        assertThat(SignatureState.isDone(state)).isTrue();
    }

    @Test
    void t3WithoutJmsStaysT3AndIsDoneWhenBothBudgetsAreSpent() {
        int state = first(true, TCP, Payloads.t3Hello());
        for (int i = 0; i < 3; i++) {
            state = inspect(state, true, Payloads.t3Message("weblogic.rjvm.JVMID"));
        }
        for (int i = 0; i < 3; i++) {
            state = inspect(state, false, Payloads.t3Message("weblogic.rmi.internal.CBVWrapper"));
        }
        assertThat(SignatureState.isDone(state)).isFalse();

        state = inspect(state, false, Payloads.t3Message("weblogic.jms.late"));
        assertThat(SignatureState.protocol(state)).isEqualTo(L7Protocol.T3_JMS);

        int noJms = first(true, TCP, Payloads.t3Hello());
        for (int i = 0; i < 4; i++) {
            noJms = inspect(noJms, false, Payloads.t3Helo());
        }
        noJms = inspect(noJms, true, Payloads.t3Hello());
        noJms = inspect(noJms, true, Payloads.t3Hello());
        noJms = inspect(noJms, true, Payloads.t3Hello());
        assertThat(SignatureState.protocol(noJms)).isEqualTo(L7Protocol.T3);
        assertThat(SignatureState.isDone(noJms)).isTrue();
        assertThat(inspect(noJms, true, Payloads.t3Message("weblogic.jms.tooLate"))).isEqualTo(noJms);
    }

    @Test
    void detectsT3MessagesOfAConnectionOpenedBeforeCapture() {
        assertThat(tcp(Payloads.t3Message("weblogic.rjvm.JVMID"))).isEqualTo(L7Protocol.T3);
        assertThat(tcp(Payloads.t3Message("weblogic.jms.frontend.FEConnectionFactoryImpl")))
                .isEqualTo(L7Protocol.T3_JMS);
        byte[] badQos = Payloads.t3Message("x");
        badQos[5] = 0x64;
        assertThat(tcp(badQos)).isEqualTo(L7Protocol.UNKNOWN);
    }

    private int inspect(int state, boolean fromInitiator, byte[] payload) {
        return detector.inspect(state, fromInitiator, TCP, payload, 0, payload.length, payload.length);
    }

    // ----- GIOP, Coherence -----

    @Test
    void detectsGiopVersionsOneZeroToOneThree() {
        for (int minor = 0; minor <= 3; minor++) {
            assertThat(tcp(Payloads.giop(1, minor))).isEqualTo(L7Protocol.GIOP);
        }
        assertThat(tcp(Payloads.giop(2, 0))).isEqualTo(L7Protocol.UNKNOWN);
        assertThat(truncated(Payloads.giop(1, 2), 7)).isEqualTo(L7Protocol.UNKNOWN);
        assertThat(truncated(Payloads.giop(1, 2), 8)).isEqualTo(L7Protocol.GIOP);
        byte[] badType = Payloads.giop(1, 2);
        badType[7] = 8;
        assertThat(tcp(badType)).isEqualTo(L7Protocol.UNKNOWN);
    }

    @Test
    void detectsMiopOverUdpAsGiop() {
        byte[] miop = of().ascii("MIOP").u8(0x10, 0x03, 0xe4, 0).zeros(24).ascii("GIOP").u8(1, 2, 1, 0).build();

        assertThat(SignatureState.protocol(first(true, UDP, miop))).isEqualTo(L7Protocol.GIOP);
    }

    @ParameterizedTest
    @ValueSource(ints = {0x0DDF00D0, 0x0DDF00D1, 0x0DDF00D2, 0x0DDF00D5, 0x0DDF00D9, 0x0DDF00DA})
    void detectsCoherenceTcmpPacketTypesOverUdp(int type) {
        int state = first(true, UDP, Payloads.tcmp(type));

        assertThat(SignatureState.protocol(state)).isEqualTo(L7Protocol.COHERENCE_TCMP);
        assertThat(SignatureState.isDone(state)).isTrue();
    }

    @Test
    void tcmpMagicCountsOnlyOverUdp() {
        assertThat(SignatureState.protocol(first(true, UDP, Payloads.tcmp(0x0DDF00DB)))).isEqualTo(L7Protocol.UNKNOWN);
        assertThat(SignatureState.protocol(first(true, UDP, Payloads.tcmp(0x0DDF00CF)))).isEqualTo(L7Protocol.UNKNOWN);
        assertThat(tcp(Payloads.tcmp(0x0DDF00D5))).isEqualTo(L7Protocol.UNKNOWN);
    }

    @Test
    void detectsCoherenceMessageBusAndMultiplexedSocketOverTcp() {
        assertThat(tcp(Payloads.tmb(0x5AC1E001L))).isEqualTo(L7Protocol.COHERENCE_TMB);
        assertThat(tcp(Payloads.tmb(0x5AC1E000L))).isEqualTo(L7Protocol.COHERENCE_TMB);
        assertThat(tcp(Payloads.tmb(0x5AC1E002L))).isEqualTo(L7Protocol.UNKNOWN);
        assertThat(truncated(Payloads.tmb(0x5AC1E001L), 4)).isEqualTo(L7Protocol.COHERENCE_TMB);
        assertThat(truncated(Payloads.tmb(0x5AC1E001L), 3)).isEqualTo(L7Protocol.UNKNOWN);
    }

    // ----- HTTP -----

    @ParameterizedTest
    @ValueSource(strings = {"GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE"})
    void detectsHttpRequestMethods(String method) {
        byte[] request = of().ascii(method + " /soa-infra/services?wsdl HTTP/1.1\r\nHost: soa\r\n\r\n").build();

        assertThat(tcp(request)).isEqualTo(L7Protocol.HTTP);
    }

    @Test
    void detectsHttpConnectResponsesAndTheHttp2Preface() {
        assertThat(tcp(of().ascii("CONNECT db.example.com:443 HTTP/1.1\r\n\r\n").build())).isEqualTo(L7Protocol.HTTP);
        assertThat(SignatureState.protocol(first(false, TCP, of().ascii("HTTP/1.1 200 OK\r\n").build())))
                .isEqualTo(L7Protocol.HTTP);
        assertThat(tcp(of().ascii("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n").build())).isEqualTo(L7Protocol.HTTP);
    }

    @Test
    void acceptsARequestLineCutByTheCaptureButNotOneWithoutVersion() {
        byte[] request = of().ascii("GET /a/very/long/path HTTP/1.1\r\n").build();

        assertThat(truncated(request, 5)).isEqualTo(L7Protocol.HTTP);
        assertThat(truncated(request, 4)).isEqualTo(L7Protocol.UNKNOWN);
        assertThat(tcp(of().ascii("GET key\r\n").build())).isEqualTo(L7Protocol.UNKNOWN);
        assertThat(tcp(of().ascii("GET / HTTP/1.1 trailing\r\n").build())).isEqualTo(L7Protocol.UNKNOWN);
        assertThat(tcp(of().ascii("GET / HTTP/1.x\r\n").build())).isEqualTo(L7Protocol.UNKNOWN);
        assertThat(tcp(of().ascii("GET / HTTP/1.0\n").build())).isEqualTo(L7Protocol.HTTP);
        assertThat(tcp(of().ascii("get / HTTP/1.1\r\n").build())).isEqualTo(L7Protocol.UNKNOWN);
        assertThat(tcp(of().ascii("GET  / HTTP/1.1\r\n").build())).isEqualTo(L7Protocol.UNKNOWN);
        assertThat(tcp(of().ascii("GET /").u8(0).ascii(" HTTP/1.1\r\n").build())).isEqualTo(L7Protocol.UNKNOWN);
        assertThat(tcp(of().ascii("HTTP/1.1200").build())).isEqualTo(L7Protocol.UNKNOWN);
    }

    // ----- TLS -----

    @Test
    void detectsTlsClientHelloAndReadsTheServerName() {
        byte[] hello = Payloads.clientHello("DB.Example.com", 8);

        int state = first(true, TCP, hello);

        assertThat(SignatureState.protocol(state)).isEqualTo(L7Protocol.TLS);
        assertThat(SignatureState.isDone(state)).isTrue();
        assertThat(SignatureState.hasSni(state)).isTrue();
        assertThat(detector.sni(hello, 0, hello.length)).isEqualTo("db.example.com");
    }

    @Test
    void readsTheServerNameAtAnOffsetInThePacketBuffer() {
        byte[] hello = Payloads.clientHello("wls1.example.com", 3);
        byte[] frame = of().zeros(54).bytes(hello).build();

        int state = detector.inspect(0, true, TCP, frame, 54, hello.length, hello.length);

        assertThat(SignatureState.hasSni(state)).isTrue();
        assertThat(detector.sni(frame, 54, hello.length)).isEqualTo("wls1.example.com");
    }

    @Test
    void tlsIsDetectedWhenTheCaptureStopsBeforeTheServerName() {
        byte[] hello = Payloads.clientHello("db.example.com", 40);
        byte[] cut = Arrays.copyOf(hello, hello.length - 3);

        int state = detector.inspect(0, true, TCP, cut, 0, cut.length, hello.length);

        assertThat(SignatureState.protocol(state)).isEqualTo(L7Protocol.TLS);
        assertThat(SignatureState.hasSni(state)).isFalse();
        assertThat(detector.sni(cut, 0, cut.length)).isEmpty();
        assertThat(truncated(hello, 11)).isEqualTo(L7Protocol.TLS);
        assertThat(truncated(hello, 5)).isEqualTo(L7Protocol.TLS); // a record header whose length fits
        assertThat(truncated(hello, 4)).isEqualTo(L7Protocol.UNKNOWN);
    }

    @Test
    void tlsWithoutServerNameOrWithAnInvalidNameReportsNone() {
        byte[] none = Payloads.clientHello(null, 4);
        assertThat(SignatureState.hasSni(first(true, TCP, none))).isFalse();
        assertThat(detector.sni(none, 0, none.length)).isEmpty();

        byte[] bad = Payloads.clientHello("evil\nhost", 4);
        assertThat(SignatureState.protocol(first(true, TCP, bad))).isEqualTo(L7Protocol.TLS);
        assertThat(SignatureState.hasSni(first(true, TCP, bad))).isFalse();
        assertThat(detector.sni(bad, 0, bad.length)).isEmpty();
    }

    @Test
    void sniBitIsClearedByTheNextCall() {
        byte[] hello = Payloads.clientHello("db.example.com", 2);
        int state = first(true, TCP, hello);

        int next = inspect(state, false, Payloads.serverHello());

        assertThat(SignatureState.hasSni(next)).isFalse();
        assertThat(SignatureState.protocol(next)).isEqualTo(L7Protocol.TLS);
    }

    @Test
    void detectsServerHelloAndRejectsOtherVersions() {
        assertThat(SignatureState.protocol(first(false, TCP, Payloads.serverHello()))).isEqualTo(L7Protocol.TLS);
        byte[] version = Payloads.serverHello();
        version[2] = 5;
        assertThat(tcp(version)).isEqualTo(L7Protocol.UNKNOWN);
    }

    // ----- TLS on a connection already running (issue 17 defect 10) -----

    /** A TLS record: 5-byte header and {@code length} body bytes of filler. */
    private static Payloads tlsRecord(Payloads p, int type, int minor, int length) {
        return p.u8(type, 3, minor).u16(length).bytes(Payloads.filler(length));
    }

    @Test
    void detectsApplicationDataRecordsWithoutAHello() {
        byte[] whole = tlsRecord(of(), 23, 3, 1200).build();
        byte[] firstOfALongRecord = tlsRecord(of(), 23, 3, 1443).build(); // a 16 KiB record: 1448 bytes seen
        byte[] header = Arrays.copyOf(firstOfALongRecord, 1448);
        header[3] = 0x40; // length 16384 + ...
        header[4] = 0x11;

        assertThat(tcp(whole)).isEqualTo(L7Protocol.TLS);
        assertThat(SignatureState.protocol(first(false, TCP, whole))).isEqualTo(L7Protocol.TLS);
        assertThat(tcp(header)).isEqualTo(L7Protocol.TLS);
        assertThat(truncated(header, 190)).isEqualTo(L7Protocol.TLS);
        assertThat(SignatureState.hasSni(first(true, TCP, whole))).isFalse();
    }

    @Test
    void detectsOtherRecordsWhenTheirLengthFitsTheSegment() {
        byte[] changeCipherSpec = tlsRecord(of(), 20, 3, 1).build();
        byte[] alert = tlsRecord(of(), 21, 3, 2).build();
        byte[] certificate = Payloads.serverHello();
        certificate[5] = 11; // a handshake record that is not a hello
        byte[] alertThenData = tlsRecord(tlsRecord(of(), 21, 3, 26), 23, 3, 300).build();
        byte[] tls12 = tlsRecord(tlsRecord(of(), 22, 1, 40), 20, 1, 1).build();

        assertThat(tcp(changeCipherSpec)).isEqualTo(L7Protocol.TLS);
        assertThat(tcp(alert)).isEqualTo(L7Protocol.TLS);
        assertThat(tcp(certificate)).isEqualTo(L7Protocol.TLS);
        assertThat(tcp(alertThenData)).isEqualTo(L7Protocol.TLS);
        assertThat(truncated(alertThenData, 31 + 5)).isEqualTo(L7Protocol.TLS);
        assertThat(tcp(tls12)).isEqualTo(L7Protocol.TLS);
    }

    @Test
    void rejectsRecordHeadersThatDoNotFitTheSegment() {
        byte[] alertTooLong = tlsRecord(of(), 21, 3, 30).build();
        alertTooLong[4] = 40; // an alert continuing past the segment: only application data may
        byte[] garbageBehind = tlsRecord(of(), 23, 3, 20).u8(0x99, 3, 3, 0, 10).zeros(10).build();
        byte[] otherVersionBehind = tlsRecord(tlsRecord(of(), 23, 3, 20), 23, 1, 10).build();
        byte[] secondHeaderNotCaptured = tlsRecord(tlsRecord(of(), 23, 3, 20), 23, 3, 10).build();
        byte[] ssl3 = tlsRecord(of(), 23, 0, 100).build();
        byte[] unknownType = tlsRecord(of(), 25, 3, 100).build();
        byte[] emptyRecord = tlsRecord(of(), 23, 3, 0).build();

        assertThat(tcp(alertTooLong)).isEqualTo(L7Protocol.UNKNOWN);
        assertThat(tcp(garbageBehind)).isEqualTo(L7Protocol.UNKNOWN);
        assertThat(tcp(otherVersionBehind)).isEqualTo(L7Protocol.UNKNOWN);
        assertThat(truncated(secondHeaderNotCaptured, 25 + 4)).isEqualTo(L7Protocol.UNKNOWN);
        assertThat(tcp(ssl3)).isEqualTo(L7Protocol.UNKNOWN);
        assertThat(tcp(unknownType)).isEqualTo(L7Protocol.UNKNOWN);
        assertThat(tcp(emptyRecord)).isEqualTo(L7Protocol.UNKNOWN);
        assertThat(truncated(tlsRecord(of(), 23, 3, 100).build(), 4)).isEqualTo(L7Protocol.UNKNOWN);
    }

    @Test
    void findsTlsOnTheFirstSegmentThatStartsARecord() {
        byte[] midRecord = Payloads.filler(1448);
        byte[] recordStart = tlsRecord(of(), 23, 3, 1443).build();
        recordStart[3] = 0x40;
        recordStart[4] = 0x11;

        int state = inspect(SignatureState.INITIAL, false, midRecord);
        assertThat(SignatureState.protocol(state)).isEqualTo(L7Protocol.UNKNOWN);
        state = inspect(state, false, midRecord);
        state = inspect(state, false, recordStart);

        assertThat(SignatureState.protocol(state)).isEqualTo(L7Protocol.TLS);
        assertThat(SignatureState.isDone(state)).isTrue();
    }

    // ----- what the other signatures need on a running connection -----

    @Test
    void detectsAGiopMessageWithoutTheFirstBytesOfTheConnection() {
        byte[] reply = Payloads.giop(1, 2);
        reply[7] = 1; // Reply
        byte[] fragment = Payloads.giop(1, 2);
        fragment[7] = 7; // Fragment

        int state = inspect(SignatureState.INITIAL, true, Payloads.filler(200)); // the middle of a message
        state = inspect(state, false, reply);

        assertThat(SignatureState.protocol(state)).isEqualTo(L7Protocol.GIOP);
        assertThat(tcp(fragment)).isEqualTo(L7Protocol.GIOP);
    }

    @Test
    void detectsT3AndTnsOnTheFirstSegmentThatStartsAMessage() {
        int t3 = inspect(SignatureState.INITIAL, true, Payloads.filler(300));
        t3 = inspect(t3, true, Payloads.t3Message("weblogic.rjvm.JVMID"));
        int tns = inspect(SignatureState.INITIAL, true, Payloads.filler(300));
        tns = inspect(tns, true, Payloads.tnsData32(0, 100));

        assertThat(SignatureState.protocol(t3)).isEqualTo(L7Protocol.T3);
        assertThat(SignatureState.protocol(tns)).isEqualTo(L7Protocol.ORACLE_TNS);
    }

    // ----- PostgreSQL, MySQL -----

    @Test
    void detectsPostgresStartupSslGssencAndCancelRequests() {
        assertThat(tcp(Payloads.pgStartup())).isEqualTo(L7Protocol.POSTGRESQL);
        assertThat(tcp(Payloads.pgRequest(8, 80877103))).isEqualTo(L7Protocol.POSTGRESQL);
        assertThat(tcp(Payloads.pgRequest(8, 80877104))).isEqualTo(L7Protocol.POSTGRESQL);
        assertThat(tcp(Payloads.pgRequest(16, 80877102))).isEqualTo(L7Protocol.POSTGRESQL);
        assertThat(truncated(Payloads.pgStartup(), 8)).isEqualTo(L7Protocol.POSTGRESQL);
    }

    @Test
    void rejectsPostgresMessagesWithOtherLengthsOrCodes() {
        assertThat(tcp(Payloads.pgRequest(16, 80877103))).isEqualTo(L7Protocol.UNKNOWN);
        assertThat(tcp(Payloads.pgRequest(12, 196609))).isEqualTo(L7Protocol.UNKNOWN);
        byte[] startup = Payloads.pgStartup();
        assertThat(SignatureState.protocol(detector.inspect(0, true, TCP, startup, 0, startup.length,
                startup.length + 10))).isEqualTo(L7Protocol.UNKNOWN);
    }

    @Test
    void detectsMysqlServerGreeting() {
        int state = first(false, TCP, Payloads.mysqlGreeting("8.0.36"));

        assertThat(SignatureState.protocol(state)).isEqualTo(L7Protocol.MYSQL);
        assertThat(SignatureState.protocol(first(false, TCP, Payloads.mysqlGreeting("5.5.5-10.6.12-MariaDB-0ubuntu0.22.04.1"))))
                .isEqualTo(L7Protocol.MYSQL);
        assertThat(truncated(Payloads.mysqlGreeting("8.0.36"), 7)).isEqualTo(L7Protocol.MYSQL);
        assertThat(truncated(Payloads.mysqlGreeting("8.0.36"), 6)).isEqualTo(L7Protocol.UNKNOWN);
    }

    @Test
    void detectsAMysqlServerThatRefusesTheClientAtOnce() {
        String text = "Host '10.2.0.20' is not allowed to connect to this MySQL server";
        byte[] refusal = of().u8(text.length() + 3, 0, 0, 0, 0xff, 0x6a, 0x04).ascii(text).build();

        assertThat(SignatureState.protocol(first(false, TCP, refusal))).isEqualTo(L7Protocol.MYSQL);
        byte[] code999 = refusal.clone();
        code999[5] = (byte) 0xe7;
        code999[6] = 0x03;
        assertThat(tcp(code999)).isEqualTo(L7Protocol.UNKNOWN);
        assertThat(truncated(refusal, 7)).isEqualTo(L7Protocol.UNKNOWN);
    }

    @Test
    void rejectsMysqlGreetingsWithWrongProtocolOrVersion() {
        byte[] protocol9 = Payloads.mysqlGreeting("8.0.36");
        protocol9[4] = 9;
        assertThat(tcp(protocol9)).isEqualTo(L7Protocol.UNKNOWN);
        assertThat(tcp(Payloads.mysqlGreeting("v8.0"))).isEqualTo(L7Protocol.UNKNOWN);
        assertThat(tcp(Payloads.mysqlGreeting("8.0\u0001x"))).isEqualTo(L7Protocol.UNKNOWN);
    }

    // ----- budget, state, robustness -----

    @Test
    void givesUpAfterTheBudgetOfBothDirections() {
        byte[] junk = Payloads.filler(100);
        int state = SignatureState.INITIAL;
        for (int i = 0; i < 4; i++) {
            state = inspect(state, true, junk);
        }
        assertThat(SignatureState.packetsSeen(state, true)).isEqualTo(4);
        assertThat(inspect(state, true, Payloads.tnsConnect(315, 300))).isEqualTo(state);
        assertThat(SignatureState.isDone(state)).isFalse();
        for (int i = 0; i < 4; i++) {
            state = inspect(state, false, junk);
        }

        assertThat(SignatureState.isDone(state)).isTrue();
        assertThat(SignatureState.protocol(state)).isEqualTo(L7Protocol.UNKNOWN);
        assertThat(inspect(state, false, Payloads.tnsAccept())).isEqualTo(state);
    }

    @Test
    void detectsOnTheLastPacketOfTheBudgetAndHonoursASmallerBudget() {
        SignatureDetector one = new SignatureDetector(1);
        byte[] junk = Payloads.filler(20);
        int state = one.inspect(0, true, TCP, junk, 0, 20, 20);
        state = one.inspect(state, false, TCP, Payloads.tnsAccept(), 0, 41, 41);

        assertThat(SignatureState.protocol(state)).isEqualTo(L7Protocol.ORACLE_TNS);
        assertThat(one.maxPacketsPerDirection()).isEqualTo(1);
    }

    @Test
    void packetsWithoutPayloadAreNotCountedAndOtherProtocolsAreDoneAtOnce() {
        int state = detector.inspect(0, true, TCP, new byte[0], 0, 0, 0);
        assertThat(state).isEqualTo(SignatureState.INITIAL);

        int icmp = detector.inspect(0, true, 1, new byte[64], 0, 64, 64);
        assertThat(SignatureState.isDone(icmp)).isTrue();
        assertThat(SignatureState.protocol(icmp)).isEqualTo(L7Protocol.UNKNOWN);
    }

    @Test
    void countsAPayloadWhoseBytesWereNotCaptured() {
        byte[] frame = new byte[54];

        int state = detector.inspect(0, true, TCP, frame, 54, 0, 1448);

        assertThat(SignatureState.packetsSeen(state, true)).isEqualTo(1);
        assertThat(SignatureState.protocol(state)).isEqualTo(L7Protocol.UNKNOWN);
    }

    @Test
    void inspectsADecodedPacket() {
        byte[] hello = Payloads.clientHello("soa.example.com", 4);
        byte[] frame = of().zeros(66).bytes(hello).build();
        Packet p = new Packet();
        p.protocol = TCP;
        p.hasPorts = true;
        p.payloadOffset = 66;
        p.payloadCaptured = hello.length;
        p.payloadLength = hello.length;

        int state = detector.inspect(0, true, p, frame);

        assertThat(SignatureState.protocol(state)).isEqualTo(L7Protocol.TLS);
        assertThat(detector.sni(frame, p.payloadOffset, p.payloadCaptured)).isEqualTo("soa.example.com");
        p.hasPorts = false;
        assertThat(detector.inspect(0, true, p, frame)).isEqualTo(SignatureState.INITIAL);
    }

    @Test
    void rejectsABudgetOutsideOneToSeven() {
        assertThatThrownBy(() -> new SignatureDetector(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxPacketsPerDirection must be 1-7: 0");
        assertThatThrownBy(() -> new SignatureDetector(8))
                .hasMessage("maxPacketsPerDirection must be 1-7: 8");
    }

    @Test
    void randomBytesNeverThrowAndRarelyMatch() {
        SplittableRandom random = new SplittableRandom(20261129);
        int matches = 0;
        int runs = 200_000;
        for (int i = 0; i < runs; i++) {
            byte[] buf = new byte[random.nextInt(0, 300)];
            random.nextBytes(buf);
            int off = random.nextInt(-2, buf.length + 3);
            int cap = random.nextInt(-2, 310);
            int len = random.nextInt(-2, 1600);
            int state = detector.inspect(random.nextInt(), random.nextBoolean(), random.nextBoolean() ? TCP : UDP,
                    buf, off, cap, len);
            detector.sni(buf, off, cap);
            if (buf.length > 0 && SignatureState.protocol(detector.inspect(0, true, TCP, buf, 0, buf.length,
                    buf.length)) != L7Protocol.UNKNOWN) {
                matches++;
            }
            assertThat(SignatureState.protocol(state)).isNotNull();
        }
        assertThat(matches).isLessThan(runs / 1000);
    }

    @Test
    void randomStatesReadBackWithoutErrors() {
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 10_000; i++) {
            int state = random.nextInt();
            assertThat(SignatureState.protocol(state)).isNotNull();
            assertThat(SignatureState.packetsSeen(state, true)).isBetween(0, 7);
            assertThat(SignatureState.packetsSeen(state, false)).isBetween(0, 7);
        }
    }
}
