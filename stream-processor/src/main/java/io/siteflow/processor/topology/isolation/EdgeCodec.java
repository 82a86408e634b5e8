package io.siteflow.processor.topology.isolation;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.siteflow.rules.isolation.Decision;
import io.siteflow.rules.isolation.HostRtt;
import io.siteflow.rules.isolation.IsolationEdge;
import io.siteflow.rules.isolation.NearestAllow;
import io.siteflow.rules.model.Category;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The isolation stage's forms of an {@link IsolationEdge} and a {@link HostRtt}: binary between the stage's steps
 * and in its stores (strings as modified UTF-8, numbers as longs), JSON on {@code siteflow.isolation} and the
 * internal API ({@code {"client", "server", "serverPort", "proto", "observer", "decision", "rule", "violates",
 * "category", "l7", "fromGroups", "toGroups", "clientSite", "serverSite", "bytes", "packets", "flows",
 * "firstSeenMs", "lastSeenMs", "nearestAllow": {"rule", "failed"}, "windowStart", "windowEnd"}}, the names of
 * {@code siteflow isolation check --format json}'s violations). Stateless, thread-safe.
 */
public final class EdgeCodec {
    private static final JsonFactory FACTORY = new JsonFactory();

    private EdgeCodec() {
    }

    /** The edge in the stage's binary form. */
    public static byte[] toBytes(IsolationEdge e) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            write(e, out);
        } catch (IOException x) {
            throw new UncheckedIOException(x);
        }
        return bytes.toByteArray();
    }

    /**
     * Reads what {@link #toBytes} wrote.
     *
     * @throws IllegalArgumentException when the bytes are not an edge
     */
    public static IsolationEdge fromBytes(byte[] b) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(b))) {
            return read(in);
        } catch (IOException | RuntimeException x) {
            throw new IllegalArgumentException("isolation edge: unreadable (" + b.length + " bytes): " + x, x);
        }
    }

    static void write(IsolationEdge e, DataOutputStream out) throws IOException {
        out.writeUTF(e.client());
        out.writeUTF(e.server());
        out.writeInt(e.serverPort());
        out.writeInt(e.proto());
        out.writeUTF(e.observer());
        out.writeByte(e.decision().ordinal());
        out.writeUTF(e.rule());
        out.writeBoolean(e.violates());
        out.writeByte(e.category().ordinal());
        out.writeUTF(e.l7());
        strings(e.fromGroups(), out);
        strings(e.toGroups(), out);
        out.writeUTF(e.clientSite());
        out.writeUTF(e.serverSite());
        out.writeLong(e.bytes());
        out.writeLong(e.packets());
        out.writeLong(e.flows());
        out.writeLong(e.firstSeenMs());
        out.writeLong(e.lastSeenMs());
        out.writeBoolean(e.nearestAllow().isPresent());
        if (e.nearestAllow().isPresent()) {
            out.writeUTF(e.nearestAllow().get().rule());
            strings(e.nearestAllow().get().failed(), out);
        }
    }

    static IsolationEdge read(DataInputStream in) throws IOException {
        String client = in.readUTF();
        String server = in.readUTF();
        int port = in.readInt();
        int proto = in.readInt();
        String observer = in.readUTF();
        Decision decision = Decision.values()[in.readByte()];
        String rule = in.readUTF();
        boolean violates = in.readBoolean();
        Category category = Category.values()[in.readByte()];
        String l7 = in.readUTF();
        List<String> from = strings(in);
        List<String> to = strings(in);
        String clientSite = in.readUTF();
        String serverSite = in.readUTF();
        long bytes = in.readLong();
        long packets = in.readLong();
        long flows = in.readLong();
        long first = in.readLong();
        long last = in.readLong();
        Optional<NearestAllow> nearest = in.readBoolean() ? Optional.of(new NearestAllow(in.readUTF(), strings(in)))
                : Optional.empty();
        return new IsolationEdge(client, server, port, proto, observer, decision, rule, violates, category, l7, from, to,
                clientSite, serverSite, bytes, packets, flows, first, last, nearest);
    }

    private static void strings(List<String> list, DataOutputStream out) throws IOException {
        out.writeShort(list.size());
        for (String s : list) {
            out.writeUTF(s);
        }
    }

    private static List<String> strings(DataInputStream in) throws IOException {
        int n = in.readUnsignedShort();
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(in.readUTF());
        }
        return out;
    }

    /** The edge as JSON, without window fields (the internal API). */
    public static String toJson(IsolationEdge e) {
        return toJson(e, Long.MIN_VALUE, Long.MIN_VALUE);
    }

    /** The edge of one window as JSON (what {@code siteflow.isolation} carries). */
    public static String toJson(IsolationEdge e, long windowStart, long windowEnd) {
        StringWriter w = new StringWriter(512);
        try (JsonGenerator g = FACTORY.createGenerator(w)) {
            g.writeStartObject();
            g.writeStringField("client", e.client());
            g.writeStringField("server", e.server());
            g.writeNumberField("serverPort", e.serverPort());
            g.writeNumberField("proto", e.proto());
            g.writeStringField("observer", e.observer());
            g.writeStringField("decision", e.decision().name());
            g.writeStringField("rule", e.rule());
            g.writeBooleanField("violates", e.violates());
            g.writeStringField("category", e.category().name());
            g.writeStringField("l7", e.l7());
            array(g, "fromGroups", e.fromGroups());
            array(g, "toGroups", e.toGroups());
            g.writeStringField("clientSite", e.clientSite());
            g.writeStringField("serverSite", e.serverSite());
            g.writeNumberField("bytes", e.bytes());
            g.writeNumberField("packets", e.packets());
            g.writeNumberField("flows", e.flows());
            g.writeNumberField("firstSeenMs", e.firstSeenMs());
            g.writeNumberField("lastSeenMs", e.lastSeenMs());
            if (e.nearestAllow().isPresent()) {
                g.writeObjectFieldStart("nearestAllow");
                g.writeStringField("rule", e.nearestAllow().get().rule());
                array(g, "failed", e.nearestAllow().get().failed());
                g.writeEndObject();
            }
            if (windowStart != Long.MIN_VALUE) {
                g.writeNumberField("windowStart", windowStart);
                g.writeNumberField("windowEnd", windowEnd);
            }
            g.writeEndObject();
        } catch (IOException x) {
            throw new UncheckedIOException(x);
        }
        return w.toString();
    }

    private static void array(JsonGenerator g, String name, List<String> values) throws IOException {
        g.writeArrayFieldStart(name);
        for (String v : values) {
            g.writeString(v);
        }
        g.writeEndArray();
    }

    /**
     * Reads what {@link #toJson} wrote (the window fields are skipped).
     *
     * @throws IllegalArgumentException when the text is not an edge, naming the field
     */
    public static IsolationEdge parse(String json) {
        try (JsonParser p = FACTORY.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("isolation edge: not a JSON object");
            }
            Fields f = new Fields();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                p.nextToken();
                f.read(name, p);
            }
            return f.edge();
        } catch (IOException x) {
            throw new IllegalArgumentException("isolation edge: not JSON: " + x.getMessage(), x);
        }
    }

    /** The fields of an edge as they are read. */
    private static final class Fields {
        String client;
        String server;
        String observer;
        String decision;
        String rule;
        String category;
        String l7;
        String clientSite;
        String serverSite;
        int port;
        int proto;
        boolean violates;
        long bytes;
        long packets;
        long flows;
        long first;
        long last;
        List<String> from = List.of();
        List<String> to = List.of();
        Optional<NearestAllow> nearest = Optional.empty();

        void read(String name, JsonParser p) throws IOException {
            switch (name) {
                case "client" -> client = p.getText();
                case "server" -> server = p.getText();
                case "serverPort" -> port = p.getIntValue();
                case "proto" -> proto = p.getIntValue();
                case "observer" -> observer = p.getText();
                case "decision" -> decision = p.getText();
                case "rule" -> rule = p.getText();
                case "violates" -> violates = p.getBooleanValue();
                case "category" -> category = p.getText();
                case "l7" -> l7 = p.getText();
                case "fromGroups" -> from = strings(p);
                case "toGroups" -> to = strings(p);
                case "clientSite" -> clientSite = p.getText();
                case "serverSite" -> serverSite = p.getText();
                case "bytes" -> bytes = p.getLongValue();
                case "packets" -> packets = p.getLongValue();
                case "flows" -> flows = p.getLongValue();
                case "firstSeenMs" -> first = p.getLongValue();
                case "lastSeenMs" -> last = p.getLongValue();
                case "nearestAllow" -> nearest = Optional.of(nearest(p));
                default -> p.skipChildren();
            }
        }

        IsolationEdge edge() {
            for (String[] required : new String[][] {{"client", client}, {"server", server}, {"observer", observer},
                {"decision", decision}, {"rule", rule}, {"category", category}, {"l7", l7},
                {"clientSite", clientSite}, {"serverSite", serverSite}}) {
                if (required[1] == null) {
                    throw new IllegalArgumentException("isolation edge: " + required[0] + " is required");
                }
            }
            return new IsolationEdge(client, server, port, proto, observer, Decision.valueOf(decision), rule, violates,
                    Category.valueOf(category), l7, from, to, clientSite, serverSite, bytes, packets, flows, first, last,
                    nearest);
        }
    }

    private static NearestAllow nearest(JsonParser p) throws IOException {
        String rule = "";
        List<String> failed = List.of();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            switch (name) {
                case "rule" -> rule = p.getText();
                case "failed" -> failed = strings(p);
                default -> p.skipChildren();
            }
        }
        return new NearestAllow(rule, failed);
    }

    private static List<String> strings(JsonParser p) throws IOException {
        List<String> out = new ArrayList<>();
        while (p.nextToken() == JsonToken.VALUE_STRING) {
            out.add(p.getText());
        }
        return out;
    }

    /** An RTT entry as JSON: {@code {"address", "peerSite", "samples", "minMicros"}}. */
    public static String toJson(HostRtt r) {
        return "{\"address\":" + quoted(r.address()) + ",\"peerSite\":" + quoted(r.peerSite()) + ",\"samples\":"
                + r.samples() + ",\"minMicros\":" + r.minMicros() + "}";
    }

    /**
     * Reads what {@link #toJson(HostRtt)} wrote.
     *
     * @throws IllegalArgumentException when the text is not an RTT entry
     */
    public static HostRtt parseRtt(String json) {
        String address = null;
        String peerSite = null;
        long samples = 0;
        long min = 0;
        try (JsonParser p = FACTORY.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("RTT entry: not a JSON object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                p.nextToken();
                switch (name) {
                    case "address" -> address = p.getText();
                    case "peerSite" -> peerSite = p.getText();
                    case "samples" -> samples = p.getLongValue();
                    case "minMicros" -> min = p.getLongValue();
                    default -> p.skipChildren();
                }
            }
        } catch (IOException x) {
            throw new IllegalArgumentException("RTT entry: not JSON: " + x.getMessage(), x);
        }
        if (address == null || peerSite == null) {
            throw new IllegalArgumentException("RTT entry: address and peerSite are required");
        }
        return new HostRtt(address, peerSite, samples, min);
    }

    private static String quoted(String s) {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = FACTORY.createGenerator(w)) {
            g.writeString(s);
        } catch (IOException x) {
            throw new UncheckedIOException(x);
        }
        return w.toString();
    }
}
