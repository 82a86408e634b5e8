package io.siteflow.agent.signature;

import io.siteflow.agent.capture.CaptureFileException;
import io.siteflow.agent.capture.file.CaptureFileReader;
import io.siteflow.agent.decode.DecodeStatus;
import io.siteflow.agent.decode.Packet;
import io.siteflow.agent.decode.PacketDecoder;
import io.siteflow.model.IpAddresses;
import io.siteflow.model.L7Protocol;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Test-only: runs {@link SignatureDetector} over the TCP/UDP flows of a capture file read with the
 * project's {@link CaptureFileReader} and {@link PacketDecoder}, each packet cut to a snap length first.
 * Flows are keyed {@code tcp a:p > b:q} with the initiator first; the initiator is the first sender (the
 * SYN sender when the capture holds the handshake). A file cut short yields the flows read before the
 * damage.
 */
final class CorpusFlows {

    /** What the detector concluded for one flow. */
    record Result(L7Protocol protocol, String sni) {
    }

    private final SignatureDetector detector = new SignatureDetector();
    private final PacketDecoder decoder = new PacketDecoder();
    private final Packet packet = new Packet();
    private final Map<String, Integer> states = new LinkedHashMap<>();
    private final Map<String, String> snis = new LinkedHashMap<>();
    private final int snaplen;

    private CorpusFlows(int snaplen) {
        this.snaplen = snaplen;
    }

    /** Flows of {@code file} by key, with packets cut to {@code snaplen} bytes. */
    static Map<String, Result> detect(Path file, int snaplen) throws CaptureFileException {
        CorpusFlows flows = new CorpusFlows(snaplen);
        try (CaptureFileReader reader = CaptureFileReader.open(file)) {
            reader.run((ts, linkType, data, offset, capLen, wireLen) ->
                    flows.onPacket(linkType, data, offset, Math.min(capLen, snaplen), wireLen));
        } catch (CaptureFileException e) {
            if (e.kind() != CaptureFileException.Kind.TRUNCATED) {
                throw e;
            }
        }
        Map<String, Result> out = new LinkedHashMap<>();
        flows.states.forEach((k, s) -> out.put(k, new Result(SignatureState.protocol(s), flows.snis.getOrDefault(k, ""))));
        return out;
    }

    private void onPacket(int linkType, byte[] data, int offset, int capLen, int wireLen) {
        Packet p = packet;
        if (decoder.decode(linkType, data, offset, capLen, wireLen, p) != DecodeStatus.IP || !p.hasPorts
                || (p.protocol != 6 && p.protocol != 17)) {
            return;
        }
        String name = p.protocol == 6 ? "tcp " : "udp ";
        String src = IpAddresses.format(p.srcHi, p.srcLo) + ":" + p.srcPort;
        String dst = IpAddresses.format(p.dstHi, p.dstLo) + ":" + p.dstPort;
        boolean fromInitiator = !states.containsKey(name + dst + " > " + src);
        String key = fromInitiator ? name + src + " > " + dst : name + dst + " > " + src;
        int state = states.getOrDefault(key, SignatureState.INITIAL);
        if (p.payloadLength > 0 && !SignatureState.isDone(state)) {
            state = detector.inspect(state, fromInitiator, p, data);
            if (SignatureState.hasSni(state)) {
                snis.put(key, detector.sni(data, p.payloadOffset, p.payloadCaptured));
            }
        }
        states.put(key, state);
    }
}
