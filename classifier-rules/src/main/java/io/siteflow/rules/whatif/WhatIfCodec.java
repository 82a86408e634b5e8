package io.siteflow.rules.whatif;

import io.siteflow.rules.verdict.RttHistogram;
import io.siteflow.rules.verdict.SitePair;
import io.siteflow.rules.verdict.SitePairRtts;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * The binary form of the what-if's inputs, as the stream processor stores them and its instances send them to each
 * other: a {@link ServerTraffic} (version byte 1; bounded flag; first, last; per peer site its name, bytes, DB calls,
 * kept flows with their bytes and, once flows were dropped, the 1,024 registers of the count estimate) and the
 * site-pair RTT histograms ({@link RttHistogram}: distinct values with their counts, max, rounded). Thread-safe.
 */
public final class WhatIfCodec {
    private static final byte VERSION = 1;

    private WhatIfCodec() {
    }

    public static byte[] toBytes(ServerTraffic t) {
        return write(out -> {
            out.writeByte(VERSION);
            out.writeBoolean(t.isBounded());
            out.writeLong(t.first());
            out.writeLong(t.last());
            out.writeInt(t.peers().size());
            for (Map.Entry<String, ServerTraffic.Peer> e : t.peers().entrySet()) {
                ServerTraffic.Peer p = e.getValue();
                out.writeUTF(e.getKey());
                out.writeLong(p.bytes);
                out.writeLong(p.dbCalls);
                out.writeInt(p.flows.kept().size());
                for (Map.Entry<WhatIfReport.Flow, Long> f : p.flows.kept().entrySet()) {
                    WhatIfReport.Flow k = f.getKey();
                    out.writeUTF(k.src());
                    out.writeShort(k.srcPort());
                    out.writeUTF(k.dst());
                    out.writeShort(k.dstPort());
                    out.writeUTF(k.category());
                    out.writeLong(f.getValue());
                }
                DistinctFlows d = p.flows.distinct();
                out.writeBoolean(d != null);
                if (d != null) {
                    out.write(d.registers());
                }
            }
        });
    }

    /** @throws IllegalArgumentException when {@code b} is not what {@link #toBytes(ServerTraffic)} writes */
    public static ServerTraffic traffic(byte[] b) {
        return read(b, "server traffic", in -> {
            version(in);
            ServerTraffic t = in.readBoolean() ? ServerTraffic.bounded() : ServerTraffic.exact();
            t.span(in.readLong(), in.readLong());
            int peers = in.readInt();
            for (int i = 0; i < peers; i++) {
                ServerTraffic.Peer p = t.newPeer(in.readUTF());
                p.bytes = in.readLong();
                p.dbCalls = in.readLong();
                int flows = in.readInt();
                for (int j = 0; j < flows; j++) {
                    WhatIfReport.Flow f = new WhatIfReport.Flow(in.readUTF(), in.readUnsignedShort(), in.readUTF(),
                            in.readUnsignedShort(), in.readUTF(), 0);
                    p.flows.kept().put(f, in.readLong());
                }
                p.flows.restoreOrder();
                if (in.readBoolean()) {
                    byte[] registers = new byte[DistinctFlows.REGISTERS];
                    in.readFully(registers);
                    p.flows.restore(new DistinctFlows(registers));
                }
            }
            return t;
        });
    }

    public static byte[] toBytes(RttHistogram h) {
        return write(out -> writeHistogram(h, out));
    }

    /** @throws IllegalArgumentException when {@code b} is not what {@link #toBytes(RttHistogram)} writes */
    public static RttHistogram histogram(byte[] b) {
        return read(b, "RTT histogram", WhatIfCodec::readHistogram);
    }

    /** Every pair's histogram (the pairs with samples). */
    public static byte[] toBytes(SitePairRtts rtts) {
        return write(out -> {
            out.writeByte(VERSION);
            Map<SitePair, RttHistogram> all = rtts.histograms();
            out.writeInt(all.size());
            for (Map.Entry<SitePair, RttHistogram> e : all.entrySet()) {
                out.writeUTF(e.getKey().siteA());
                out.writeUTF(e.getKey().siteB());
                writeHistogram(e.getValue(), out);
            }
        });
    }

    /** @throws IllegalArgumentException when {@code b} is not what {@link #toBytes(SitePairRtts)} writes */
    public static SitePairRtts rtts(byte[] b) {
        return read(b, "site-pair RTTs", in -> {
            version(in);
            SitePairRtts out = new SitePairRtts();
            int n = in.readInt();
            for (int i = 0; i < n; i++) {
                SitePair p = SitePair.of(in.readUTF(), in.readUTF());
                out.merge(p, readHistogram(in));
            }
            return out;
        });
    }

    private static void writeHistogram(RttHistogram h, DataOutputStream out) throws IOException {
        out.writeByte(VERSION);
        Map<Long, Long> counts = h.counts();
        out.writeInt(counts.size());
        for (Map.Entry<Long, Long> e : counts.entrySet()) {
            out.writeLong(e.getKey());
            out.writeLong(e.getValue());
        }
        out.writeLong(h.max());
        out.writeBoolean(h.rounded());
    }

    private static RttHistogram readHistogram(DataInputStream in) throws IOException {
        version(in);
        int n = in.readInt();
        Map<Long, Long> counts = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            counts.put(in.readLong(), in.readLong());
        }
        long max = in.readLong();
        return RttHistogram.of(counts, max, in.readBoolean());
    }

    private static void version(DataInputStream in) throws IOException {
        byte v = in.readByte();
        if (v != VERSION) {
            throw new IOException("version " + v + ", not " + VERSION);
        }
    }

    private interface Writer {
        void write(DataOutputStream out) throws IOException;
    }

    private interface Reader<T> {
        T read(DataInputStream in) throws IOException;
    }

    private static byte[] write(Writer w) {
        ByteArrayOutputStream b = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(b)) {
            w.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return b.toByteArray();
    }

    private static <T> T read(byte[] b, String what, Reader<T> r) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(b))) {
            T t = r.read(in);
            if (in.available() > 0) {
                throw new IOException(in.available() + " bytes left over");
            }
            return t;
        } catch (IOException e) {
            throw new IllegalArgumentException(what + ": not readable (" + b.length + " bytes): "
                    + (e instanceof EOFException ? "it ends early" : e.getMessage()), e);
        }
    }
}
