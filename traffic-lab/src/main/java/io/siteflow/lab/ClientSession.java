package io.siteflow.lab;

import io.siteflow.synth.CoherencePayloads;
import io.siteflow.synth.T3Payloads;
import io.siteflow.synth.TnsPayloads;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One TCP connection from a region-2 host to a {@link LabService}, opened inside the region-2 namespace
 * from the host's own address, with the protocol's opening exchange done: TNS CONNECT/ACCEPT, the T3 text
 * handshake, the TMB handshake from each end (HTTP has none). {@link #exchange} then sends one request in
 * the protocol's framing and reads the whole answer. Not thread-safe: one user at a time.
 */
final class ClientSession implements Closeable {
    private static final Pattern LENGTH = Pattern.compile("content-length: (\\d+)");

    private final LabService service;
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final Random random;
    private final DbCallClock clock;

    private ClientSession(LabService service, Socket socket, Random random, DbCallClock clock) throws IOException {
        this.service = service;
        this.socket = socket;
        this.in = new BufferedInputStream(socket.getInputStream(), 65_536);
        this.out = new BufferedOutputStream(socket.getOutputStream(), 65_536);
        this.random = random;
        this.clock = clock;
    }

    /** Connects from {@code local} to {@code service} inside {@code ns} and does the opening exchange. */
    static ClientSession open(String ns, LabHost local, LabService service, Random random) throws Exception {
        return open(ns, local, service, random, null);
    }

    /**
     * {@link #open}, timing the TNS exchanges (the CONNECT and each round trip) and the connection's life on
     * {@code clock} when it is not null.
     */
    static ClientSession open(String ns, LabHost local, LabService service, Random random, DbCallClock clock)
            throws Exception {
        if (clock != null) {
            clock.opening(System.nanoTime());
        }
        Socket s = Netns.call(ns, () -> {
            Socket socket = new Socket();
            try {
                socket.setTcpNoDelay(true);
                socket.setSoTimeout(30_000);
                socket.bind(new InetSocketAddress(local.address(), 0));
                socket.connect(new InetSocketAddress(service.host().address(), service.port()), 10_000);
                return socket;
            } catch (IOException e) {
                socket.close();
                throw e;
            }
        });
        ClientSession session = new ClientSession(service, s, random, clock);
        try {
            session.opening(local);
        } catch (IOException e) {
            session.close();
            throw e;
        }
        return session;
    }

    private void opening(LabHost local) throws IOException {
        switch (service) {
            case TNS -> {
                send(TnsPayloads.connect(service.host().address(), service.port(), "FMWPDB.lab"));
                long sent = System.nanoTime();
                byte[] header = Wire.read(in, 8);
                timed(sent);
                Wire.skip(in, ((header[0] & 0xFF) << 8 | header[1] & 0xFF) - 8);
            }
            case T3_WLS1, T3_WLS2, JMS_WLS1, JMS_WLS2 -> {
                send(T3Payloads.CLIENT_HELLO);
                Wire.readUntil(in, "\n\n");
            }
            case TMB -> {
                send(CoherencePayloads.tmbHandshake(random));
                Wire.read(in, CoherencePayloads.TMB_HANDSHAKE);
            }
            case ADMIN_HTTP -> {
                // HTTP opens with the first request
            }
            default -> throw new IllegalArgumentException(service + " is not a TCP service");
        }
    }

    /** Sends a request of about {@code requestSize} payload bytes asking for {@code replySize}, reads the answer. */
    void exchange(int requestSize, int replySize) throws IOException {
        switch (service) {
            case TNS -> {
                int size = Math.max(15, Math.min(TnsPayloads.SDU, requestSize));
                send(Wire.withReplySize(TnsPayloads.data(random, size, 0x03), replySize));
                long sent = System.nanoTime();
                Wire.read(in, 1);
                timed(sent);
                Wire.skip(in, Math.max(TnsPayloads.MIN_DATA, replySize) - 1L);
            }
            case T3_WLS1, T3_WLS2, JMS_WLS1, JMS_WLS2 -> {
                String[] classes = service == LabService.JMS_WLS1 || service == LabService.JMS_WLS2
                        ? T3Payloads.JMS_CLASSES : T3Payloads.CLUSTER_CLASSES;
                int size = Math.max(T3Payloads.sizeFor(classes) + 4, requestSize);
                send(Wire.withReplySize(T3Payloads.message(random, size, classes), replySize));
                Wire.skip(in, Wire.readInt(in) - 4L);
            }
            case TMB -> {
                send(Wire.withReplySize(CoherencePayloads.tmbMessage(random, Math.max(8, requestSize)), replySize));
                Wire.skip(in, Wire.readInt(in));
            }
            case ADMIN_HTTP -> http(replySize);
            default -> throw new IllegalStateException(service.name());
        }
    }

    private void http(int replySize) throws IOException {
        send(("GET /management/weblogic/latest/domainRuntime/serverRuntimes?size=" + replySize + " HTTP/1.1\r\n"
                + "Host: " + service.host().name() + ":" + service.port() + "\r\nAccept: application/json\r\n"
                + "User-Agent: siteflow-lab\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        String headers = Wire.readUntil(in, "\r\n\r\n");
        Matcher m = LENGTH.matcher(headers.toLowerCase(Locale.ROOT));
        if (!m.find()) {
            throw new IOException("HTTP answer without Content-Length: " + headers.lines().findFirst().orElse(""));
        }
        Wire.skip(in, Long.parseLong(m.group(1)));
    }

    /** A call sent at {@code sentNanos} whose answer's first byte was just read. */
    private void timed(long sentNanos) {
        if (clock != null) {
            clock.call(sentNanos, System.nanoTime());
        }
    }

    private void send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /**
     * Ends the connection the orderly way and waits for it: sends FIN, reads to the server's FIN (so every packet of the
     * connection but the last ACK has crossed when it returns), then closes.
     *
     * @throws IOException when the server sends data instead of closing
     */
    void finish() throws IOException {
        socket.shutdownOutput();
        if (in.read() >= 0) {
            throw new IOException(service + ": the server sent data after the last answer");
        }
        close();
    }

    @Override
    public void close() throws IOException {
        socket.close();
        if (clock != null) {
            clock.closed(System.nanoTime());
        }
    }
}
