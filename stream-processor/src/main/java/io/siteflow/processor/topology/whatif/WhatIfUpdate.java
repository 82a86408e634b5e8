package io.siteflow.processor.topology.whatif;

import io.siteflow.rules.verdict.SitePair;
import io.siteflow.rules.whatif.ServerTraffic;
import io.siteflow.rules.whatif.WhatIfReport;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Objects;
import java.util.Optional;

/**
 * What one classified record gives the what-if stage of one server, re-keyed by the server's address: the
 * server's entry ({@link ServerTraffic#entryOf}) with the server's host name and the record's agent (for the
 * observer rule in the server's task), and/or the record's RTT sample with its site pair ({@code WhatIf.rttPairOf};
 * a record gives it once, with its first server's update, or alone keyed by its source address). Binary on the
 * repartition topic ({@link #toBytes}). Immutable.
 *
 * @param served the server's part, empty for an RTT sample alone
 * @param rtt    the RTT sample, empty when the record has none
 * @param time   the record's start (the stage's stream time), epoch ms
 */
public record WhatIfUpdate(Optional<Served> served, Optional<Rtt> rtt, long time) {
    private static final byte VERSION = 1;

    public WhatIfUpdate {
        Objects.requireNonNull(served, "served");
        Objects.requireNonNull(rtt, "rtt");
    }

    /**
     * @param serverName the server's host name (its host agent's id)
     * @param agent      the agent that recorded the flow
     * @param entry      what the record adds to the server's traffic
     */
    public record Served(String serverName, String agent, ServerTraffic.Entry entry) {
    }

    /** One handshake RTT sample of a site pair, µs. */
    public record Rtt(SitePair pair, long micros) {
    }

    public byte[] toBytes() {
        ByteArrayOutputStream b = new ByteArrayOutputStream(128);
        try (DataOutputStream out = new DataOutputStream(b)) {
            out.writeByte(VERSION);
            out.writeLong(time);
            out.writeBoolean(served.isPresent());
            if (served.isPresent()) {
                Served s = served.get();
                ServerTraffic.Entry e = s.entry();
                out.writeUTF(s.serverName());
                out.writeUTF(s.agent());
                out.writeUTF(e.flow().src());
                out.writeShort(e.flow().srcPort());
                out.writeUTF(e.flow().dst());
                out.writeShort(e.flow().dstPort());
                out.writeUTF(e.flow().category());
                out.writeUTF(e.peerSite());
                out.writeLong(e.bytes());
                out.writeLong(e.dbCalls());
                out.writeLong(e.start());
                out.writeLong(e.end());
            }
            out.writeBoolean(rtt.isPresent());
            if (rtt.isPresent()) {
                out.writeUTF(rtt.get().pair().siteA());
                out.writeUTF(rtt.get().pair().siteB());
                out.writeLong(rtt.get().micros());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return b.toByteArray();
    }

    /** @throws IllegalArgumentException when {@code b} is not what {@link #toBytes} writes */
    public static WhatIfUpdate fromBytes(byte[] b) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(b))) {
            byte v = in.readByte();
            if (v != VERSION) {
                throw new IOException("version " + v + ", not " + VERSION);
            }
            long time = in.readLong();
            Optional<Served> served = Optional.empty();
            if (in.readBoolean()) {
                String name = in.readUTF();
                String agent = in.readUTF();
                WhatIfReport.Flow f = new WhatIfReport.Flow(in.readUTF(), in.readUnsignedShort(), in.readUTF(),
                        in.readUnsignedShort(), in.readUTF(), 0);
                served = Optional.of(new Served(name, agent, new ServerTraffic.Entry(f, in.readUTF(), in.readLong(),
                        in.readLong(), in.readLong(), in.readLong())));
            }
            Optional<Rtt> rtt = Optional.empty();
            if (in.readBoolean()) {
                rtt = Optional.of(new Rtt(SitePair.of(in.readUTF(), in.readUTF()), in.readLong()));
            }
            if (in.available() > 0) {
                throw new IOException(in.available() + " bytes left over");
            }
            return new WhatIfUpdate(served, rtt, time);
        } catch (IOException e) {
            throw new IllegalArgumentException("what-if update: not readable (" + b.length + " bytes): "
                    + (e instanceof java.io.EOFException ? "it ends early" : e.getMessage()), e);
        }
    }
}
