package io.siteflow.bench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Records flow-export datagrams once and replays them, for {@code bench/collect.sh}:
 * <ul>
 *   <li>{@code DatagramReplay record FILE PORT DONE_FILE}: receives UDP datagrams on 127.0.0.1:PORT and writes each
 *   to FILE ({@code [u16 length][bytes]}); stops when DONE_FILE exists (the exporter exited) and no datagram came for
 *   1 s; prints the number of datagrams.</li>
 *   <li>{@code DatagramReplay replay FILE HOST:PORT [RATE]}: sends every datagram of FILE to HOST:PORT, as fast as
 *   the socket takes them or at RATE datagrams/s; prints "datagrams seconds".</li>
 * </ul>
 */
public final class DatagramReplay {
    private DatagramReplay() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length >= 4 && args[0].equals("record")) {
            System.out.println(record(Path.of(args[1]), Integer.parseInt(args[2]), Path.of(args[3])));
        } else if (args.length >= 3 && args[0].equals("replay")) {
            String[] hp = args[2].split(":");
            long rate = args.length > 3 ? Long.parseLong(args[3]) : 0;
            replay(Path.of(args[1]), new InetSocketAddress(hp[0], Integer.parseInt(hp[1])), rate);
        } else {
            System.err.println("usage: DatagramReplay record FILE PORT DONE_FILE | replay FILE HOST:PORT [RATE]");
            System.exit(64);
        }
    }

    private static long record(Path file, int port, Path done) throws IOException {
        long n = 0;
        byte[] buf = new byte[65536];
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
             DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file)))) {
            s.setReceiveBufferSize(16 << 20);
            s.setSoTimeout(1000);
            while (true) {
                DatagramPacket p = new DatagramPacket(buf, buf.length);
                try {
                    s.receive(p);
                } catch (SocketTimeoutException e) {
                    if (Files.exists(done)) {
                        return n;
                    }
                    continue;
                }
                out.writeShort(p.getLength());
                out.write(p.getData(), 0, p.getLength());
                n++;
            }
        }
    }

    private static void replay(Path file, InetSocketAddress to, long rate) throws IOException {
        List<byte[]> datagrams = new ArrayList<>();
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
            while (true) {
                int len;
                try {
                    len = in.readUnsignedShort();
                } catch (EOFException e) {
                    break;
                }
                byte[] d = new byte[len];
                in.readFully(d);
                datagrams.add(d);
            }
        }
        try (DatagramSocket s = new DatagramSocket()) {
            s.setSendBufferSize(4 << 20);
            long start = System.nanoTime();
            for (int i = 0; i < datagrams.size(); i++) {
                if (rate > 0) {
                    long due = start + i * 1_000_000_000L / rate;
                    while (System.nanoTime() < due) {
                        Thread.onSpinWait();
                    }
                }
                byte[] d = datagrams.get(i);
                s.send(new DatagramPacket(d, d.length, to));
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf("%d %.3f%n", datagrams.size(), seconds);
        }
    }
}
