package io.siteflow.processor.topology.isolation;

import io.siteflow.rules.isolation.HostRtt;
import io.siteflow.rules.isolation.IsolationEdge;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What one classified record gives the isolation stage, on its way from the record's task to its edge's task
 * (the {@code isolation-by-edge} topic): the record's edge when the policy decided it (in scope), and its
 * handshake RTT entries ({@code IsolationInputsBuilder.rtts}: both ends, any scope). At least one of the two.
 * Immutable.
 *
 * @param edge the record's edge, empty when the flow is out of the policy's scope
 * @param rtts the record's RTT entries, empty without a handshake RTT or a site at both ends
 * @param time   the record's event time ({@code start}), epoch ms
 * @param policy whether the record's model has an isolation policy (without one, its edges raise no alert)
 */
public record EdgeUpdate(Optional<IsolationEdge> edge, List<HostRtt> rtts, long time, boolean policy) {
    public EdgeUpdate {
        Objects.requireNonNull(edge, "edge");
        rtts = List.copyOf(rtts);
    }

    /** The binary form ({@link EdgeCodec}'s edge, then the RTT entries). */
    public byte[] toBytes() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeLong(time);
            out.writeBoolean(policy);
            out.writeBoolean(edge.isPresent());
            if (edge.isPresent()) {
                EdgeCodec.write(edge.get(), out);
            }
            out.writeShort(rtts.size());
            for (HostRtt r : rtts) {
                out.writeUTF(r.address());
                out.writeUTF(r.peerSite());
                out.writeLong(r.samples());
                out.writeLong(r.minMicros());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * Reads what {@link #toBytes} wrote.
     *
     * @throws IllegalArgumentException when the bytes are not an update
     */
    public static EdgeUpdate fromBytes(byte[] b) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(b))) {
            long time = in.readLong();
            boolean policy = in.readBoolean();
            Optional<IsolationEdge> edge = in.readBoolean() ? Optional.of(EdgeCodec.read(in)) : Optional.empty();
            int n = in.readUnsignedShort();
            List<HostRtt> rtts = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                rtts.add(new HostRtt(in.readUTF(), in.readUTF(), in.readLong(), in.readLong()));
            }
            return new EdgeUpdate(edge, rtts, time, policy);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("isolation update: unreadable (" + b.length + " bytes): " + e, e);
        }
    }
}
