package io.siteflow.bench;

import io.siteflow.agent.signature.SignatureDetector;
import io.siteflow.agent.signature.SignatureState;
import io.siteflow.model.L7Protocol;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of one {@link SignatureDetector#inspect} call on the first payload of a flow, with the payload
 * cut as a 256-byte snap length leaves it (190 bytes after Ethernet/IPv4/TCP with timestamps).
 * Run: {@code java -cp bench/target/classes:bench/target/lib/* org.openjdk.jmh.Main SignatureBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SignatureBenchmark {

    private static final int TCP = 6;
    private static final int CAPTURED = 190;
    private static final int RANDOM_PAYLOADS = 1024;

    private final SignatureDetector detector = new SignatureDetector();
    private byte[] tnsData;
    private byte[] tnsConnect;
    private byte[] http;
    private byte[] tls;
    private byte[] t3Message;
    private byte[][] random;
    private int next;

    @Setup
    public void setUp() {
        tnsData = cat(u32(1410), new byte[] {6, 0x20, 0, 0, 0, 0, 3, 0x5e}, filler(180));
        String cd = "(DESCRIPTION=(CONNECT_DATA=(SERVICE_NAME=ORCLPDB1)(CID=(PROGRAM=JDBC)))(ADDRESS=(PROTOCOL=tcp)))";
        tnsConnect = cat(new byte[] {0, (byte) (70 + cd.length()), 0, 0, 1, 0, 0, 0, 1, 0x3b, 1, 0x2c},
                new byte[58], ascii(cd));
        http = ascii("GET /soa-infra/services/default/OrderProcessing/orderprocessor_client_ep?WSDL HTTP/1.1\r\n"
                + "Host: soa.example.com:8001\r\nUser-Agent: Java/17\r\nAccept: text/xml\r\n\r\n");
        tls = clientHello("db.example.com");
        t3Message = cat(u32(1200), new byte[] {1, 0x65, 1}, filler(180));
        SplittableRandom r = new SplittableRandom(42);
        random = new byte[RANDOM_PAYLOADS][CAPTURED];
        for (byte[] b : random) {
            r.nextBytes(b);
        }
        check(tnsData, L7Protocol.ORACLE_TNS, 1410);
        check(tnsConnect, L7Protocol.ORACLE_TNS, tnsConnect.length);
        check(http, L7Protocol.HTTP, http.length);
        check(tls, L7Protocol.TLS, tls.length);
    }

    @Benchmark
    public int tnsDataPacket() {
        return detector.inspect(SignatureState.INITIAL, true, TCP, tnsData, 0, CAPTURED, 1410);
    }

    @Benchmark
    public int tnsConnect() {
        return detector.inspect(SignatureState.INITIAL, true, TCP, tnsConnect, 0, tnsConnect.length, tnsConnect.length);
    }

    @Benchmark
    public int httpRequest() {
        return detector.inspect(SignatureState.INITIAL, true, TCP, http, 0, Math.min(CAPTURED, http.length), http.length);
    }

    @Benchmark
    public int tlsClientHello() {
        return detector.inspect(SignatureState.INITIAL, true, TCP, tls, 0, tls.length, tls.length);
    }

    @Benchmark
    public String tlsServerName() {
        return detector.sni(tls, 0, tls.length);
    }

    /** A payload that matches nothing: every signature runs. */
    @Benchmark
    public int randomPayload() {
        byte[] b = random[next++ & (RANDOM_PAYLOADS - 1)];
        return detector.inspect(SignatureState.INITIAL, true, TCP, b, 0, CAPTURED, 1448);
    }

    /** A later packet of a T3 flow: a scan of the captured bytes for {@code weblogic.jms.}. */
    @Benchmark
    public int t3JmsScan() {
        int t3 = 0x10 | (L7Protocol.T3.ordinal() + 1);
        return detector.inspect(t3, false, TCP, t3Message, 0, CAPTURED, 1200);
    }

    private void check(byte[] payload, L7Protocol expected, int len) {
        int state = detector.inspect(0, true, TCP, payload, 0, Math.min(CAPTURED, payload.length), len);
        if (SignatureState.protocol(state) != expected) {
            throw new IllegalStateException("fixture is not " + expected + ": " + SignatureState.protocol(state));
        }
    }

    private static byte[] clientHello(String host) {
        byte[] sni = cat(new byte[] {0, 0, 0, (byte) (host.length() + 5), 0, (byte) (host.length() + 3), 0, 0,
            (byte) host.length()}, ascii(host));
        byte[] suites = {0, 6, 0x13, 1, 0x13, 2, 0x13, 3};
        byte[] hello = cat(new byte[] {3, 3}, filler(32), new byte[] {32}, filler(32), suites, new byte[] {1, 0},
                new byte[] {0, (byte) sni.length}, sni);
        return cat(new byte[] {22, 3, 1, 0, (byte) (hello.length + 4), 1, 0, 0, (byte) hello.length}, hello);
    }

    private static byte[] u32(int v) {
        return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] filler(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) ('a' + i % 26);
        }
        return b;
    }

    private static byte[] cat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
