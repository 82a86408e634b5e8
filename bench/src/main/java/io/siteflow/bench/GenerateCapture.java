package io.siteflow.bench;

import io.siteflow.synth.Conversation;
import io.siteflow.synth.Endpoint;
import io.siteflow.synth.PcapWriter;
import io.siteflow.synth.TcpConversation;
import io.siteflow.synth.TimedFrame;
import io.siteflow.synth.UdpExchange;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * Writes a large synthetic capture with many flows for the offline benchmark ({@code bench/agent-offline.sh}):
 * {@code GenerateCapture OUT.pcap [PACKETS] [SEED]} (defaults 5 500 000 packets, seed 1).
 *
 * <p>Conversations start in batches of {@value #BATCH} every 2 s of capture time between 4096 clients in
 * 10.2.0.0/16 and 256 servers in 10.1.0.0/16, with one-way delays up to 3.25 ms on each side:
 * 70% short TCP connections (handshake, 1-4 request/response round trips with log-normal response sizes,
 * close), 8% long-lived pooled connections (20-80 round trips), 22% UDP (a DNS-sized query and answer).
 * Frames are written in time order; the file is the same for the same arguments.
 */
public final class GenerateCapture {
    private static final int BATCH = 2000;
    private static final long SECOND = 1_000_000_000L;
    private static final long BATCH_SPAN = 2 * SECOND;
    private static final int[] SERVER_PORTS = {1521, 1521, 1521, 7001, 8011, 443, 443, 80, 9002, 7574};
    private static final byte[] POOL = new byte[1 << 18];

    private final Random random;
    private final PcapWriter out;
    private final List<TimedFrame> pending = new ArrayList<>();
    private long flows;

    private GenerateCapture(long seed, PcapWriter out) {
        this.random = new Random(seed);
        this.out = out;
        random.nextBytes(POOL);
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: GenerateCapture OUT.pcap [PACKETS] [SEED]");
            System.exit(64);
        }
        Path file = Path.of(args[0]);
        long packets = args.length > 1 ? Long.parseLong(args[1]) : 5_500_000L;
        long seed = args.length > 2 ? Long.parseLong(args[2]) : 1L;
        long began = System.nanoTime();
        try (PcapWriter w = PcapWriter.create(file, PcapWriter.Resolution.MICROS, 65535)) {
            GenerateCapture g = new GenerateCapture(seed, w);
            g.run(packets);
            System.err.printf("%s: %d packets, %d flows, %d MB in %.1f s%n", file, w.packets(), g.flows,
                    w.bytesWritten() >> 20, (System.nanoTime() - began) / 1e9);
        }
    }

    private void run(long packets) throws IOException {
        long t = 1_764_000_000L * SECOND;
        while (out.packets() + pending.size() < packets) {
            for (int i = 0; i < BATCH; i++) {
                pending.addAll(conversation(t + (long) (random.nextDouble() * BATCH_SPAN)).frames());
                flows++;
            }
            t += BATCH_SPAN;
            flushBefore(t);
        }
        flushBefore(Long.MAX_VALUE);
    }

    /** Writes every pending frame earlier than {@code t}, in time order; later ones wait for the next batch. */
    private void flushBefore(long t) throws IOException {
        pending.sort(Comparator.comparingLong(TimedFrame::tsNanos));
        int n = 0;
        while (n < pending.size() && pending.get(n).tsNanos() < t) {
            TimedFrame f = pending.get(n++);
            out.write(f.tsNanos(), f.frame());
        }
        pending.subList(0, n).clear();
    }

    private Conversation conversation(long start) {
        Endpoint client = new Endpoint(address(2, random.nextInt(4096)), 32768 + random.nextInt(28232));
        int kind = random.nextInt(100);
        long dc = random.nextInt(3_250_000);
        long ds = random.nextInt(3_250_000);
        if (kind < 22) {
            UdpExchange u = new UdpExchange(client, new Endpoint(address(1, random.nextInt(256)), 53), dc, ds);
            return u.requestResponse(start, slice(40 + random.nextInt(30)), slice(80 + random.nextInt(120)), 100_000);
        }
        Endpoint server = new Endpoint(address(1, random.nextInt(256)), SERVER_PORTS[random.nextInt(SERVER_PORTS.length)]);
        TcpConversation c = TcpConversation.between(client, server).delays(dc, ds)
                .isn(random.nextInt(), random.nextInt()).ipIds(random.nextInt(), random.nextInt()).build();
        c.connect(start);
        boolean pooled = kind < 30;
        int rounds = pooled ? 20 + random.nextInt(61) : 1 + random.nextInt(4);
        long t = start;
        for (int i = 0; i < rounds; i++) {
            t = c.ready() + (pooled ? 20_000_000L + random.nextInt(80_000_000) : random.nextInt(2_000_000));
            c.exchange(t, true, slice(logNormal(400, 0.6, 60, 4000)), slice(logNormal(1500, 1.3, 40, 200_000)),
                    100_000 + random.nextInt(2_000_000));
        }
        return c.close(c.ready(), random.nextBoolean());
    }

    private int logNormal(double median, double sigma, int min, int max) {
        double v = median * Math.exp(sigma * random.nextGaussian());
        return (int) Math.max(min, Math.min(max, Math.round(v)));
    }

    private byte[] slice(int size) {
        int from = random.nextInt(POOL.length - size);
        return Arrays.copyOfRange(POOL, from, from + size);
    }

    private static InetAddress address(int region, int host) {
        try {
            return InetAddress.getByAddress(new byte[] {10, (byte) region, (byte) (host >>> 8), (byte) host});
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
