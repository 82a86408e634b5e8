package io.siteflow.lab;

import io.siteflow.synth.T3Payloads;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import jdk.net.ExtendedSocketOptions;

/**
 * The isolation lab's traffic (issue 25): across the lab's router, one conversation a policy that lets only DB
 * traffic cross allows, and four it must flag ({@link Conversation}). Region 1 serves the database port (TNS, or T3
 * to a client that opens with the T3 handshake), wls1's JMS channel and an SSH-like server on admin1; region 2 gets
 * one more address, {@link #UNLISTED}, that no {@code hosts} entry of the lab's site model names.
 *
 * <p>{@link #start} opens the SSH-like connection, exchanges its first packets and waits until their last ACK has
 * crossed before it returns, so a capture started afterwards sees a connection already running, and captures started
 * at different moments afterwards see the same packets (no handshake: the agent's initiator rule for such flows
 * applies). {@link #run} then runs every conversation, one after the other, and ends every connection, the
 * SSH-like one included, the orderly way: FIN, the server's FIN read, close; so when it returns every packet but the
 * last ACKs has crossed the router. Needs root (the lab). Not thread-safe.
 */
public final class IsolationTraffic implements AutoCloseable {
    /** An address in region 2 that the lab's site model lists in no {@code hosts} entry. */
    public static final LabHost UNLISTED = new LabHost("unlisted", "10.2.0.99", LabTopology.REGION2);
    /** The SSH-like server's port on admin1. */
    public static final int SSH_PORT = 22;
    /** SSH-like packets exchanged before the capture begins. */
    static final int EARLY_PACKETS = 4;

    /** The lab's conversations: client, server and the server's port. */
    public enum Conversation {
        /** TNS CONNECT, ACCEPT and DATA round trips from wls3 to the database: the DB traffic that may cross. */
        ALLOWED_DB(LabHost.WLS3, LabHost.DB1, 1521),
        /** T3 from wls3 to wls1's JMS channel whose first messages name {@code weblogic.jms.} classes ({@code t3-jms}). */
        JMS_ACROSS(LabHost.WLS3, LabHost.WLS1, 8011),
        /** The T3 handshake and T3 messages from wls4 to the database's port 1521 ({@code t3}, not {@code oracle-tns}). */
        T3_ON_DB_PORT(LabHost.WLS4, LabHost.DB1, 1521),
        /** TNS from {@link #UNLISTED} to the database. */
        UNLISTED_TO_DB(UNLISTED, LabHost.DB1, 1521),
        /** SSH-like from wls3 to admin1, opened before the capture began. */
        SSH_RUNNING(LabHost.WLS3, LabHost.ADMIN1, SSH_PORT);

        private final LabHost client;
        private final LabHost server;
        private final int port;

        Conversation(LabHost client, LabHost server, int port) {
            this.client = client;
            this.server = server;
            this.port = port;
        }

        public LabHost client() {
            return client;
        }

        public LabHost server() {
            return server;
        }

        public int port() {
            return port;
        }
    }

    private final TrafficLab lab;
    private final LabServers servers;
    private final Random random;
    private Connection ssh;

    private IsolationTraffic(TrafficLab lab, LabServers servers, Random random) {
        this.lab = lab;
        this.servers = servers;
        this.random = random;
    }

    /**
     * Adds {@link #UNLISTED} to region 2, starts region 1's servers and opens the SSH-like connection (version lines
     * and {@value #EARLY_PACKETS} packets each way) before returning.
     */
    public static IsolationTraffic start(TrafficLab lab, long seed) throws Exception {
        lab.addHost(UNLISTED);
        LabServers servers = LabServers.start(lab.topology().region1(), seed, List.of(
                new LabServers.Listener(LabHost.DB1.address(), 1521, ServerProtocols.tnsOrT3()),
                new LabServers.Listener(LabHost.WLS1.address(), 8011, ServerProtocols.tcp(LabService.JMS_WLS1)),
                new LabServers.Listener(LabHost.ADMIN1.address(), SSH_PORT, ServerProtocols.ssh())));
        IsolationTraffic traffic = new IsolationTraffic(lab, servers, new Random(seed));
        try {
            traffic.ssh = traffic.connect(Conversation.SSH_RUNNING);
            traffic.ssh.send(SshLike.CLIENT_VERSION);
            Wire.readUntil(traffic.ssh.in, "\r\n");
            for (int i = 0; i < EARLY_PACKETS; i++) {
                traffic.sshExchange();
            }
            traffic.awaitSshQuiet();
        } catch (Exception e) {
            traffic.close();
            throw e;
        }
        return traffic;
    }

    /**
     * Runs every conversation, {@code rounds} request/answer exchanges each (the SSH-like one continues on its
     * running connection), one conversation after the other, and closes each connection when it is done.
     */
    public void run(int rounds) throws Exception {
        String region2 = lab.topology().region2();
        for (int i = 0; i < rounds; i++) {
            sshExchange();
        }
        ssh.finish();
        for (Conversation c : List.of(Conversation.ALLOWED_DB, Conversation.UNLISTED_TO_DB)) {
            try (ClientSession db = ClientSession.open(region2, c.client(), LabService.TNS, random)) {
                for (int i = 0; i < rounds; i++) {
                    db.exchange(200 + random.nextInt(400), 1_000 + random.nextInt(4_000));
                }
                db.finish();
            }
        }
        try (ClientSession jms = ClientSession.open(region2, Conversation.JMS_ACROSS.client(), LabService.JMS_WLS1,
                random)) {
            for (int i = 0; i < rounds; i++) {
                jms.exchange(300 + random.nextInt(700), 200 + random.nextInt(800));
            }
            jms.finish();
        }
        try (Connection t3 = connect(Conversation.T3_ON_DB_PORT)) {
            t3.send(T3Payloads.CLIENT_HELLO);
            Wire.readUntil(t3.in, "\n\n");
            for (int i = 0; i < rounds; i++) {
                int size = T3Payloads.sizeFor(T3Payloads.CLUSTER_CLASSES) + 4 + random.nextInt(300);
                t3.send(Wire.withReplySize(T3Payloads.message(random, size, T3Payloads.CLUSTER_CLASSES),
                        T3Payloads.MIN_MESSAGE + random.nextInt(600)));
                Wire.skip(t3.in, Wire.readInt(t3.in) - 4L);
            }
            t3.finish();
        }
    }

    /** Connections region 1's servers ended with an error other than the peer closing. */
    public long serverFailures() {
        return servers.failures();
    }

    /** Closes the SSH-like connection if still open and every server socket. Idempotent. */
    @Override
    public void close() throws IOException {
        if (ssh != null) {
            ssh.close();
        }
        servers.close();
    }

    /**
     * Returns once no packet of the SSH-like connection is on its way: the client's ACK of the last answer (which
     * Linux delays by 40-200 ms) is sent now ({@code TCP_QUICKACK}), and both ends hold no unacknowledged data
     * ({@code ss}: no {@code unacked:}), so that ACK has crossed the router. Without this, a capture started right
     * after {@link #start} may see that ACK and a capture started a little later not: two captures of the lab then
     * differ by one frame (issue 25's lab IT compares the agent with tcpdump frame for frame).
     *
     * @throws IOException when the ends still hold unacknowledged data after 10 s, with what {@code ss} printed
     */
    private void awaitSshQuiet() throws IOException {
        if (ssh.socket.supportedOptions().contains(ExtendedSocketOptions.TCP_QUICKACK)) {
            ssh.socket.setOption(ExtendedSocketOptions.TCP_QUICKACK, true);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            String client = Shell.inNs(lab.topology().region2(), "ss", "-tni", "dport", "=", ":" + SSH_PORT);
            String server = Shell.inNs(lab.topology().region1(), "ss", "-tni", "sport", "=", ":" + SSH_PORT);
            if (!client.contains("unacked:") && !server.contains("unacked:")) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("the SSH-like connection still holds unacknowledged data after 10 s:\n" + client
                        + server);
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for the SSH-like connection's last ACK", e);
            }
        }
    }

    private void sshExchange() throws IOException {
        int size = SshLike.MIN_PACKET + random.nextInt(200);
        ssh.send(Wire.withReplySize(SshLike.packet(random, size), SshLike.MIN_PACKET + random.nextInt(1_000)));
        int length = Wire.readInt(ssh.in);
        Wire.skip(ssh.in, length);
    }

    private Connection connect(Conversation c) throws Exception {
        Socket s = Netns.call(lab.topology().namespaceOf(c.client().site()), () -> {
            Socket socket = new Socket();
            try {
                socket.setTcpNoDelay(true);
                socket.setSoTimeout(30_000);
                socket.bind(new InetSocketAddress(c.client().address(), 0));
                socket.connect(new InetSocketAddress(c.server().address(), c.port()), 10_000);
                return socket;
            } catch (IOException e) {
                socket.close();
                throw e;
            }
        });
        return new Connection(s);
    }

    /** One client socket with buffered streams. */
    private static final class Connection implements Closeable {
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;

        Connection(Socket socket) throws IOException {
            this.socket = socket;
            this.in = new BufferedInputStream(socket.getInputStream(), 65_536);
            this.out = new BufferedOutputStream(socket.getOutputStream(), 65_536);
        }

        void send(byte[] bytes) throws IOException {
            out.write(bytes);
            out.flush();
        }

        /** As {@link ClientSession#finish}: FIN, the server's FIN read, closed. */
        void finish() throws IOException {
            socket.shutdownOutput();
            if (in.read() >= 0) {
                throw new IOException(socket.getRemoteSocketAddress() + ": the server sent data after the last answer");
            }
            close();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
