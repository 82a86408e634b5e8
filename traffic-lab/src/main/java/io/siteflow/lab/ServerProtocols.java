package io.siteflow.lab;

import io.siteflow.synth.CoherencePayloads;
import io.siteflow.synth.DnsPayloads;
import io.siteflow.synth.T3Payloads;
import io.siteflow.synth.TnsPayloads;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The server side of each lab protocol: reads requests in the protocol's framing until the client closes,
 * and answers each with the size it asks for ({@link Wire}). Stateless; each connection has its own
 * {@link Random}.
 */
final class ServerProtocols {
    /** Serves one TCP connection until the peer closes it (an {@link java.io.EOFException}). */
    interface TcpHandler {
        void serve(InputStream in, OutputStream out, Random random) throws IOException;
    }

    /** Answers one datagram; returns the reply, or null for none. */
    interface UdpHandler {
        byte[] answer(byte[] request, int length, Random random);
    }

    private static final Pattern SIZE = Pattern.compile("[?&]size=(\\d+)");

    private ServerProtocols() {
    }

    static TcpHandler tcp(LabService s) {
        return tcp(s, 0);
    }

    /** The handler of {@code s}; the TNS one waits {@code dbServiceNanos} before answering each DATA packet. */
    static TcpHandler tcp(LabService s, long dbServiceNanos) {
        return switch (s) {
            case TNS -> (in, out, r) -> tns(in, out, r, dbServiceNanos);
            case T3_WLS1, T3_WLS2 -> (in, out, r) -> t3(in, out, r, T3Payloads.CLUSTER_CLASSES);
            case JMS_WLS1, JMS_WLS2 -> (in, out, r) -> t3(in, out, r, T3Payloads.JMS_CLASSES);
            case TMB -> ServerProtocols::tmb;
            case ADMIN_HTTP -> ServerProtocols::http;
            default -> throw new IllegalArgumentException(s + " is not a TCP service");
        };
    }

    /**
     * A database port that answers what the client opens with: the T3 handshake ({@code t3 }) gets a T3 server
     * (cluster classes), anything else the TNS listener ({@link #tcp}'s TNS handler, answering at once): the isolation
     * lab's T3 sent to port 1521.
     */
    static TcpHandler tnsOrT3() {
        return (in, out, r) -> {
            in.mark(1);
            int first = in.read();
            if (first < 0) {
                throw new java.io.EOFException("connection closed before its first byte");
            }
            in.reset();
            if (first == 't') {
                t3(in, out, r, T3Payloads.CLUSTER_CLASSES);
            } else {
                tns(in, out, r, 0);
            }
        };
    }

    /**
     * An SSH-like server ({@link SshLike}): its version line, the client's, then binary packets each answered with a
     * packet of the size it asks for.
     */
    static TcpHandler ssh() {
        return (in, out, r) -> {
            out.write(SshLike.SERVER_VERSION);
            out.flush();
            Wire.readUntil(in, "\r\n");
            while (true) {
                int length = Wire.readInt(in);
                byte[] rest = Wire.read(in, length);
                out.write(SshLike.packet(r, Math.max(SshLike.MIN_PACKET, Wire.replySize(rest, rest.length))));
                out.flush();
            }
        };
    }

    static UdpHandler udp(LabService s) {
        return switch (s) {
            case TCMP -> (req, len, r) -> CoherencePayloads.tcmp(r, Math.max(4, Wire.replySize(req, len)));
            case DNS -> ServerProtocols::dns;
            default -> throw new IllegalArgumentException(s + " is not a UDP service");
        };
    }

    /**
     * CONNECT → ACCEPT; each DATA packet → DATA packets of the asked size, after the service time (the database
     * working on the statement; parked, so the wait is at least that long).
     */
    private static void tns(InputStream in, OutputStream out, Random r, long serviceNanos) throws IOException {
        while (true) {
            byte[] header = Wire.read(in, 8);
            int length = (header[0] & 0xFF) << 8 | header[1] & 0xFF;
            byte[] packet = new byte[length];
            System.arraycopy(header, 0, packet, 0, 8);
            System.arraycopy(Wire.read(in, length - 8), 0, packet, 8, length - 8);
            if (header[4] == 1) {
                out.write(TnsPayloads.accept());
            } else {
                serve(serviceNanos);
                out.write(TnsPayloads.data(r, Math.max(TnsPayloads.MIN_DATA, Wire.replySize(packet, length)), 0x10));
            }
            out.flush();
        }
    }

    private static void serve(long nanos) {
        long until = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = until - System.nanoTime()) {
            java.util.concurrent.locks.LockSupport.parkNanos(left);
        }
    }

    /** Text handshake, then length-prefixed messages each answered with a message naming {@code classes}. */
    private static void t3(InputStream in, OutputStream out, Random r, String[] classes) throws IOException {
        Wire.readUntil(in, "\n\n");
        out.write(T3Payloads.SERVER_HELLO);
        out.flush();
        while (true) {
            int length = Wire.readInt(in);
            byte[] m = Wire.read(in, length - 4);
            int reply = Wire.replySize(m, m.length);
            if (reply > 0) {
                out.write(T3Payloads.message(r, Math.max(reply, T3Payloads.MIN_MESSAGE), classes));
                out.flush();
            }
        }
    }

    /** TMB handshake from each end, then length-prefixed messages. */
    private static void tmb(InputStream in, OutputStream out, Random r) throws IOException {
        Wire.read(in, CoherencePayloads.TMB_HANDSHAKE);
        out.write(CoherencePayloads.tmbHandshake(r));
        out.flush();
        while (true) {
            int length = Wire.readInt(in);
            byte[] m = Wire.read(in, length);
            out.write(CoherencePayloads.tmbMessage(r, Math.max(8, Wire.replySize(m, m.length))));
            out.flush();
        }
    }

    /** HTTP/1.1 keep-alive: each GET gets a JSON-looking body of {@code size} bytes. */
    private static void http(InputStream in, OutputStream out, Random r) throws IOException {
        while (true) {
            String request = Wire.readUntil(in, "\r\n\r\n");
            Matcher m = SIZE.matcher(request.lines().findFirst().orElse(""));
            int size = m.find() ? Integer.parseInt(m.group(1)) : 2;
            out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + size
                    + "\r\nX-Powered-By: Servlet/3.1 JSP/2.3\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(HttpBodies.json(r, size));
            out.flush();
        }
    }

    /** An A answer for the queried name: region-1's JMS server. */
    private static byte[] dns(byte[] request, int length, Random r) {
        int id = (request[0] & 0xFF) << 8 | request[1] & 0xFF;
        StringBuilder name = new StringBuilder();
        int at = 12;
        while (at < length && request[at] != 0) {
            int n = request[at] & 0xFF;
            if (name.length() > 0) {
                name.append('.');
            }
            name.append(new String(request, at + 1, Math.min(n, length - at - 1), StandardCharsets.US_ASCII));
            at += n + 1;
        }
        try {
            return DnsPayloads.answer(id, name.toString(), InetAddress.getByName(LabHost.WLS1.address()).getAddress());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
