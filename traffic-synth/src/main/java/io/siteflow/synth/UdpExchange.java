package io.siteflow.synth;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * UDP datagrams between a client and a server as a capture point between them sees them. Times are the
 * times datagrams pass the capture point (epoch nanoseconds); a reply leaves the server
 * {@code 2 × serverDelay + think} after its request passed (the server's own delay counted twice).
 *
 * <p>Not thread-safe. Datagrams may be added in any time order; {@link #frames()} sorts them.
 */
public final class UdpExchange implements Conversation {
    private final Endpoint client;
    private final Endpoint server;
    private final long clientDelay;
    private final long serverDelay;
    private final DirectionTotals fromClient = new DirectionTotals();
    private final DirectionTotals fromServer = new DirectionTotals();
    private final List<TimedFrame> frames = new ArrayList<>();
    private int clientIpId;
    private int serverIpId;

    /**
     * @param clientDelay one-way delay client ↔ capture point, nanoseconds
     * @param serverDelay one-way delay capture point ↔ server, nanoseconds
     * @throws IllegalArgumentException when a delay is negative or the families differ
     */
    public UdpExchange(Endpoint client, Endpoint server, long clientDelay, long serverDelay) {
        if (clientDelay < 0 || serverDelay < 0) {
            throw new IllegalArgumentException("delays must not be negative: " + clientDelay + ", " + serverDelay);
        }
        if (client.isV4() != server.isV4()) {
            throw new IllegalArgumentException(client + " and " + server + " are of different address families");
        }
        this.client = client;
        this.server = server;
        this.clientDelay = clientDelay;
        this.serverDelay = serverDelay;
    }

    /** Sets the first IP identification of each end (modulo 2^16). */
    public UdpExchange ipIds(int client, int server) {
        this.clientIpId = client & 0xFFFF;
        this.serverIpId = server & 0xFFFF;
        return this;
    }

    /** One datagram passing the capture point at {@code at}. */
    public UdpExchange send(long at, boolean fromClientSide, byte[] payload) {
        Endpoint src = fromClientSide ? client : server;
        Endpoint dst = fromClientSide ? server : client;
        int id = fromClientSide ? clientIpId++ : serverIpId++;
        byte[] f = Frames.udp(src, dst, id & 0xFFFF, payload, 0, payload.length);
        (fromClientSide ? fromClient : fromServer).add(f);
        frames.add(new TimedFrame(at, f));
        return this;
    }

    /** A request from the client at {@code at} and the server's reply after its round trip and {@code thinkNanos}. */
    public UdpExchange requestResponse(long at, byte[] request, byte[] response, long thinkNanos) {
        send(at, true, request);
        return send(at + 2 * serverDelay + thinkNanos, false, response);
    }

    /** A datagram from the server at {@code at} answered by the client after its round trip. */
    public UdpExchange serverRequest(long at, byte[] request, byte[] response, long thinkNanos) {
        send(at, false, request);
        return send(at + 2 * clientDelay + thinkNanos, true, response);
    }

    /** The datagrams in time order (equal times in the order they were added). */
    @Override
    public List<TimedFrame> frames() {
        List<TimedFrame> sorted = new ArrayList<>(frames);
        sorted.sort(Comparator.comparingLong(TimedFrame::tsNanos));
        return sorted;
    }

    @Override
    public int protocol() {
        return 17;
    }

    /** Always -1: UDP has no handshake. */
    @Override
    public long handshakeRttMicros() {
        return -1;
    }

    @Override
    public Endpoint client() {
        return client;
    }

    @Override
    public Endpoint server() {
        return server;
    }

    @Override
    public DirectionTotals fromClient() {
        return fromClient;
    }

    @Override
    public DirectionTotals fromServer() {
        return fromServer;
    }
}
