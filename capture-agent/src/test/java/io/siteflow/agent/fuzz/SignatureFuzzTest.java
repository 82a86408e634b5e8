package io.siteflow.agent.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.siteflow.agent.signature.SignatureDetector;
import io.siteflow.agent.signature.SignatureState;
import java.util.Arrays;
import java.util.Locale;

/**
 * Fuzz harness for the L7 signatures, through {@link SignatureDetector} which runs every signature of the
 * transport in turn until one matches (TLS and its server name, HTTP, T3, GIOP/MIOP, Coherence TMB/TCMP,
 * PostgreSQL, MySQL, Oracle TNS). Input layout: byte 0 bit 0 UDP instead of TCP, bit 1 from the responder; byte
 * 1 how much longer the payload was on the wire; the rest is the captured payload. No payload makes a signature
 * throw or read past the captured bytes (the payload inside a larger buffer, other bytes after it, gives the
 * same state); a server name, when found, is non-empty lower-case text. Seeds: one per protocol, in
 * {@code src/test/resources/io/siteflow/agent/fuzz/SignatureFuzzTestInputs/}; docs/FUZZING.md.
 */
class SignatureFuzzTest {
    private static final int PAD = 9;
    private final SignatureDetector detector = new SignatureDetector();

    @FuzzTest
    void recognisesOrPassesAnyPayload(byte[] input) {
        if (input.length < 2) {
            return;
        }
        int protocol = (input[0] & 1) == 0 ? 6 : 17;
        boolean fromInitiator = (input[0] & 2) == 0;
        byte[] payload = Arrays.copyOfRange(input, 2, input.length);
        int wireLen = payload.length + (input[1] & 0xFF);

        int state = detector.inspect(SignatureState.INITIAL, fromInitiator, protocol, payload, 0, payload.length,
                wireLen);
        byte[] padded = new byte[PAD + payload.length + PAD];
        Arrays.fill(padded, (byte) 0x16);
        System.arraycopy(payload, 0, padded, PAD, payload.length);
        assertThat(detector.inspect(SignatureState.INITIAL, fromInitiator, protocol, padded, PAD, payload.length,
                wireLen)).isEqualTo(state);

        if (SignatureState.hasSni(state)) {
            String name = detector.sni(payload, 0, payload.length);
            assertThat(name).isNotEmpty().isEqualTo(name.toLowerCase(Locale.ROOT));
            assertThat(detector.sni(padded, PAD, payload.length)).isEqualTo(name);
        }
        int next = detector.inspect(state, !fromInitiator, protocol, payload, 0, payload.length, wireLen);
        assertThat(SignatureState.protocol(next)).isNotNull();
    }
}
