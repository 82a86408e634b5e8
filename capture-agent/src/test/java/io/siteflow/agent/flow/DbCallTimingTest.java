package io.siteflow.agent.flow;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.agent.decode.DecodeStatus;
import io.siteflow.agent.decode.Packet;
import io.siteflow.agent.decode.PacketDecoder;
import io.siteflow.agent.signature.SignatureL7Tracker;
import io.siteflow.model.CallHistogram;
import io.siteflow.model.FlowRecord;
import io.siteflow.model.L7Protocol;
import io.siteflow.synth.Endpoint;
import io.siteflow.synth.Frames;
import io.siteflow.synth.TnsPayloads;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * DB call timing on byte-level fixtures: Ethernet/IPv4/TCP frames with Oracle Net payloads, decoded and fed to the
 * flow table with the real signature tracker, as the agent runs them. The client (wls3) is at the capture point.
 */
class DbCallTimingTest {
    private static final long MS = 1_000_000L;
    private static final long T0 = 1_764_000_000_000L * MS;
    private static final Endpoint WLS3 = Endpoint.of("10.2.0.20", 40112);
    private static final Endpoint DB1 = Endpoint.of("10.1.0.10", 1521);

    private final CollectingSink sink = new CollectingSink();
    private final List<FlowRecord> records = sink.records;
    private final Random random = new Random(15);
    private final PacketDecoder decoder = new PacketDecoder();
    private final Packet packet = new Packet();
    private FlowTable table = table(FlowTableConfig.DEFAULTS);
    private long clientSeq = 1000;
    private long serverSeq = 9000;

    private FlowTable table(FlowTableConfig cfg) {
        return new FlowTable(cfg, new RecordFactory("wls3", "ens3", "run1"), sink, new SignatureL7Tracker());
    }

    /** Sends {@code payload[off, off+len)} at {@code t} with the next sequence number of its side. */
    private void send(boolean fromClient, long t, byte[] payload, int off, int len) {
        long seq = fromClient ? clientSeq : serverSeq;
        sendAt(fromClient, t, seq, payload, off, len);
        if (fromClient) {
            clientSeq += len;
        } else {
            serverSeq += len;
        }
    }

    private void sendAt(boolean fromClient, long t, long seq, byte[] payload, int off, int len) {
        long ack = fromClient ? serverSeq : clientSeq;
        byte[] frame = Frames.tcp(fromClient ? WLS3 : DB1, fromClient ? DB1 : WLS3, 1,
                new Frames.TcpHeader(seq, ack, Frames.ACK | Frames.PSH, 64240), payload, off, len);
        assertThat(decoder.decode(1, frame, 0, frame.length, frame.length, packet)).isEqualTo(DecodeStatus.IP);
        table.offer(packet, t, frame.length, frame);
    }

    private void send(boolean fromClient, long t, byte[] payload) {
        send(fromClient, t, payload, 0, payload.length);
    }

    private byte[] tns(int size, int ttc) {
        return TnsPayloads.data(random, size, ttc);
    }

    private FlowRecord only() {
        table.flushAll();
        assertThat(records).hasSize(1);
        return records.get(0);
    }

    private static CallHistogram histogram(long... micros) {
        Map<Integer, Long> m = new java.util.TreeMap<>();
        for (long us : micros) {
            m.merge(CallHistogram.bucketOf(us), 1L, Long::sum);
        }
        return CallHistogram.of(m);
    }

    @Test
    void timesOneCallFromTheLastRequestSegmentToTheFirstResponseSegment() {
        send(true, T0, tns(400, 3));
        send(false, T0 + 9_500_000, tns(2000, 6));

        FlowRecord r = only();

        assertThat(r.l7()).isEqualTo(L7Protocol.ORACLE_TNS);
        assertThat(r.dbCalls()).isEqualTo(1);
        assertThat(r.dbCallMicros()).isEqualTo(9_500);
        assertThat(r.dbCallHistogram()).isEqualTo(histogram(9_500));
    }

    @Test
    void countsRequestsSentBackToBackAsOneCallAndARequestAmidResponsesAsTheNextTimedToTheNextResponseSegment() {
        send(true, T0, tns(300, 3));
        send(true, T0 + 200_000, tns(300, 3));
        send(false, T0 + 6_700_000, tns(500, 6));
        send(true, T0 + 6_800_000, tns(300, 3));
        send(false, T0 + 6_900_000, tns(500, 6));
        send(false, T0 + 13_800_000, tns(500, 6));

        FlowRecord r = only();

        assertThat(r.dbCalls()).isEqualTo(2);
        assertThat(r.dbCallMicros()).isEqualTo(6_500 + 100);
        assertThat(r.dbCallHistogram()).isEqualTo(histogram(6_500, 100));
    }

    @Test
    void countsAResponseSplitOverManySegmentsOnce() {
        byte[] rows = tns(20_000, 6);
        send(true, T0, tns(400, 3));
        for (int i = 0; i < rows.length; i += 1460) {
            send(false, T0 + 8_000_000 + i * 10L, rows, i, Math.min(1460, rows.length - i));
        }

        FlowRecord r = only();

        assertThat(r.rpackets()).isEqualTo(14);
        assertThat(r.dbCalls()).isEqualTo(1);
        assertThat(r.dbCallMicros()).isEqualTo(8_000);
    }

    @Test
    void aRetransmittedRequestNeitherMovesNorStartsACall() {
        byte[] call = tns(400, 3);
        long seq = clientSeq;
        send(true, T0, call);
        sendAt(true, T0 + 200 * MS, seq, call, 0, call.length);
        send(false, T0 + 210 * MS, tns(600, 6));
        sendAt(true, T0 + 400 * MS, seq, call, 0, call.length);
        byte[] response = tns(600, 6);
        long serverAt = serverSeq;
        send(false, T0 + 500 * MS, response);
        sendAt(false, T0 + 700 * MS, serverAt, response, 0, response.length);

        FlowRecord r = only();

        assertThat(r.packets()).isEqualTo(3);
        assertThat(r.dbCalls()).isEqualTo(1);
        assertThat(r.dbCallMicros()).isEqualTo(210_000);
    }

    @Test
    void countsACallCutByTheActiveTimeoutInTheRecordOfItsResponse() {
        table = table(FlowTableConfig.DEFAULTS.withActiveTimeout(Duration.ofSeconds(1)));
        send(true, T0, tns(400, 3));
        send(false, T0 + 4 * MS, tns(400, 6));
        send(true, T0 + 999 * MS, tns(400, 3));
        table.advanceTime(T0 + 1_500 * MS);
        send(false, T0 + 1_600 * MS, tns(400, 6));

        table.flushAll();

        assertThat(records).hasSize(2);
        assertThat(records.get(0).isFinal()).isFalse();
        assertThat(records.get(0).dbCalls()).isEqualTo(1);
        assertThat(records.get(0).dbCallMicros()).isEqualTo(4_000);
        assertThat(records.get(1).dbCalls()).isEqualTo(1);
        assertThat(records.get(1).dbCallMicros()).isEqualTo(601_000);
        assertThat(records.get(1).dbCallHistogram()).isEqualTo(histogram(601_000));
    }

    @Test
    void aFlowRunningWhenCaptureBeganStartsCountingAtItsFirstRequest() {
        send(false, T0, tns(1200, 6));
        send(false, T0 + 20_000, tns(1200, 6));
        send(true, T0 + 50 * MS, tns(400, 3));
        send(false, T0 + 59 * MS, tns(900, 6));
        send(true, T0 + 80 * MS, tns(400, 3));

        FlowRecord r = only();

        assertThat(r.src()).isEqualTo("10.2.0.20");
        assertThat(r.l7()).isEqualTo(L7Protocol.ORACLE_TNS);
        assertThat(r.dbCalls()).isEqualTo(1);
        assertThat(r.dbCallMicros()).isEqualTo(9_000);
    }

    /** A SYN, SYN/ACK, ACK handshake with the given initial sequence numbers; the next segments follow them. */
    private void handshake(long t, long clientIsn, long serverIsn) {
        handshakeSegment(true, t, clientIsn, 0, Frames.SYN);
        handshakeSegment(false, t + 6_650_000, serverIsn, clientIsn + 1, Frames.SYN | Frames.ACK);
        handshakeSegment(true, t + 6_700_000, clientIsn + 1, serverIsn + 1, Frames.ACK);
        clientSeq = clientIsn + 1;
        serverSeq = serverIsn + 1;
    }

    private void handshakeSegment(boolean fromClient, long t, long seq, long ack, int flags) {
        byte[] frame = Frames.tcp(fromClient ? WLS3 : DB1, fromClient ? DB1 : WLS3, 1,
                new Frames.TcpHeader(seq, ack, flags, 64240), new byte[0], 0, 0);
        assertThat(decoder.decode(1, frame, 0, frame.length, frame.length, packet)).isEqualTo(DecodeStatus.IP);
        table.offer(packet, t, frame.length, frame);
    }

    @Test
    void aConnectionReplayedOnTheSameFiveTupleCountsItsCallsAgain() {
        // the same connection twice, byte for byte, 2 s apart: siteflow demo loops its sample this way
        byte[] call = tns(400, 3);
        byte[] rows = tns(2000, 6);
        for (long pass = 0; pass < 2; pass++) {
            long t = T0 + pass * 2_000 * MS;
            handshake(t, 1000, 9000);
            send(true, t + 10 * MS, call);
            send(false, t + 19_500_000, rows);
        }

        table.flushAll();

        assertThat(records).hasSize(2);
        assertThat(records).extracting(FlowRecord::isFinal).containsExactly(true, true);
        assertThat(records).extracting(FlowRecord::start).containsExactly(T0 / MS, T0 / MS + 2_000);
        assertThat(records).extracting(FlowRecord::rttMicros).containsExactly(6_700L, 6_700L);
        assertThat(records).extracting(FlowRecord::dbCalls).containsExactly(1L, 1L);
        assertThat(records).extracting(FlowRecord::dbCallMicros).containsExactly(9_500L, 9_500L);
    }

    @Test
    void timesNoCallsWhenTimingIsOffOrTheFlowIsNoDatabase() {
        table = table(FlowTableConfig.DEFAULTS.withDbCallTiming(false));
        send(true, T0, tns(400, 3));
        send(false, T0 + 9 * MS, tns(400, 6));
        table.flushAll();
        byte[] http = "GET / HTTP/1.1\r\nHost: a\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        table = table(FlowTableConfig.DEFAULTS);
        send(true, T0, http);
        send(false, T0 + 9 * MS, "HTTP/1.1 200 OK\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        table.flushAll();

        assertThat(records).extracting(FlowRecord::l7).containsExactly(L7Protocol.ORACLE_TNS, L7Protocol.HTTP);
        assertThat(records).extracting(FlowRecord::dbCalls).containsExactly(0L, 0L);
        assertThat(records).extracting(FlowRecord::dbCallHistogram)
                .containsExactly(CallHistogram.EMPTY, CallHistogram.EMPTY);
    }
}
