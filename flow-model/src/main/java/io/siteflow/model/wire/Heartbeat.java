package io.siteflow.model.wire;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One agent heartbeat on {@link Topics#AGENTS}, keyed by agent id: the one class that writes it (the capture agent,
 * every 10 s) and reads it (the stream processor's agents store, {@code GET /api/agents}, the observer-drops check).
 * Immutable; the JSON methods are stateless and thread-safe.
 *
 * <p>JSON, fields in component order:
 * {@code {"agent":"wls3","iface":"ens3","time":1764000000000,"received":1000,"droppedKernel":2,"droppedInterface":1,
 * "decodeErrors":3,"recordsSent":40,"spooled":5,"dropped":0}}. Counters are totals since the agent started, except
 * {@code spooled}, which is what waits in the spool when the heartbeat is written. An agent capturing with several
 * workers ({@code --workers N}) adds each one's packet counters, in worker order:
 * {@code "workers":[{"received":600,"droppedKernel":2,"droppedInterface":1,"droppedAgent":0},{...}]}; with one
 * worker the field is left out. A flow collector ({@code siteflow collect}) adds its own counters after those,
 * {@link Export}: {@code "exportDatagrams":335,"exportRecords":1082,"exportRecordsLost":0,"exportPacketsLost":0,
 * "exportSflowPackets":0,"exportSflowDatagramsLost":0,"exportDatagramsMalformed":0,"exportersRefused":0}; a
 * capture agent leaves them out. Readers older than these fields skip them.
 *
 * @param agent            agent id, never null
 * @param iface            interface or capture file, never null (empty when a reader found none)
 * @param time             epoch ms when the counters were read
 * @param received         packets received
 * @param droppedKernel    packets the kernel dropped
 * @param droppedInterface packets the interface dropped
 * @param decodeErrors     packets that could not be decoded
 * @param recordsSent      flow records acknowledged by Kafka (directly or replayed from the spool); on the wire for
 *                         operators and cross-checks, not shown by the processor's API
 * @param spooled          flow records waiting in the agent's disk spool now (not a total: it falls back to 0 once
 *                         the spool has been replayed)
 * @param dropped          flow records lost: hand-off queue or spool full
 * @param workers          each capture worker's packet counters (they add up to the totals), empty with one worker
 * @param export           a flow collector's counters, null for a capture agent (and for a collector older than them)
 */
public record Heartbeat(String agent, String iface, long time, long received, long droppedKernel,
        long droppedInterface, long decodeErrors, long recordsSent, long spooled, long dropped, List<Worker> workers,
        Export export) {
    private static final JsonFactory FACTORY = new JsonFactory();

    /**
     * One capture worker's packet counters, totals since the agent started.
     *
     * @param received         packets this worker's socket received
     * @param droppedKernel    packets the kernel dropped from this worker's ring
     * @param droppedInterface packets the interface dropped, as this worker's socket counts them
     * @param droppedAgent     packets this worker's hand-off queue dropped (aggregation fell behind)
     */
    public record Worker(long received, long droppedKernel, long droppedInterface, long droppedAgent) {
    }

    /**
     * A flow collector's counters, totals since it started, each in its own unit (the heartbeat's {@code received}
     * and {@code droppedKernel} add them up as one number for readers older than this record:
     * capture-agent/docs/collect.md "Counters").
     *
     * @param datagrams           datagrams received from accepted exporters (NetFlow, IPFIX and sFlow)
     * @param records             NetFlow v5/v9 and IPFIX flow records decoded
     * @param recordsLost         flow records lost on the way, from NetFlow v5 and IPFIX sequence numbers
     * @param packetsLost         NetFlow v9 export packets lost on the way, from their sequence numbers
     * @param sflowPackets        sFlow sampled packets decoded into flows
     * @param sflowDatagramsLost  sFlow datagrams lost on the way, from their sequence numbers
     * @param datagramsMalformed  datagrams (or parts of them) that could not be read, every kind
     * @param exportersRefused    datagrams refused: their exporter is not in {@code --exporter}, or beyond the bound
     */
    public record Export(long datagrams, long records, long recordsLost, long packetsLost, long sflowPackets,
            long sflowDatagramsLost, long datagramsMalformed, long exportersRefused) {
    }

    public Heartbeat {
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(iface, "iface");
        workers = List.copyOf(workers);
    }

    /** A heartbeat of an agent with one capture worker (no {@code workers} field). */
    public Heartbeat(String agent, String iface, long time, long received, long droppedKernel, long droppedInterface,
            long decodeErrors, long recordsSent, long spooled, long dropped) {
        this(agent, iface, time, received, droppedKernel, droppedInterface, decodeErrors, recordsSent, spooled,
                dropped, List.of());
    }

    /** A heartbeat of a capture agent (no collector counters). */
    public Heartbeat(String agent, String iface, long time, long received, long droppedKernel, long droppedInterface,
            long decodeErrors, long recordsSent, long spooled, long dropped, List<Worker> workers) {
        this(agent, iface, time, received, droppedKernel, droppedInterface, decodeErrors, recordsSent, spooled,
                dropped, workers, null);
    }

    /** This heartbeat as UTF-8 JSON, fields in component order, no line break. */
    public byte[] toJson() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator g = FACTORY.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("agent", agent);
            g.writeStringField("iface", iface);
            g.writeNumberField("time", time);
            g.writeNumberField("received", received);
            g.writeNumberField("droppedKernel", droppedKernel);
            g.writeNumberField("droppedInterface", droppedInterface);
            g.writeNumberField("decodeErrors", decodeErrors);
            g.writeNumberField("recordsSent", recordsSent);
            g.writeNumberField("spooled", spooled);
            g.writeNumberField("dropped", dropped);
            if (!workers.isEmpty()) {
                g.writeArrayFieldStart("workers");
                for (Worker w : workers) {
                    g.writeStartObject();
                    g.writeNumberField("received", w.received());
                    g.writeNumberField("droppedKernel", w.droppedKernel());
                    g.writeNumberField("droppedInterface", w.droppedInterface());
                    g.writeNumberField("droppedAgent", w.droppedAgent());
                    g.writeEndObject();
                }
                g.writeEndArray();
            }
            if (export != null) {
                g.writeNumberField("exportDatagrams", export.datagrams());
                g.writeNumberField("exportRecords", export.records());
                g.writeNumberField("exportRecordsLost", export.recordsLost());
                g.writeNumberField("exportPacketsLost", export.packetsLost());
                g.writeNumberField("exportSflowPackets", export.sflowPackets());
                g.writeNumberField("exportSflowDatagramsLost", export.sflowDatagramsLost());
                g.writeNumberField("exportDatagramsMalformed", export.datagramsMalformed());
                g.writeNumberField("exportersRefused", export.exportersRefused());
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /**
     * Reads a heartbeat, leniently so that older and newer agents stay readable: unknown fields are skipped, a
     * missing or non-integer counter reads as 0, a missing {@code iface} as empty; {@link #export()} is null unless
     * {@code exportDatagrams} is there (a collector writes all of its counters or none).
     *
     * @param json the JSON text, may be null
     * @return empty when the text is null, not JSON, not an object, or has no string {@code agent}; never throws
     */
    public static Optional<Heartbeat> parse(String json) {
        if (json == null) {
            return Optional.empty();
        }
        Map<String, Object> f = new HashMap<>();
        List<Worker> workers = new ArrayList<>();
        try (JsonParser p = FACTORY.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return Optional.empty();
            }
            readFields(p, f, workers);
        } catch (IOException e) {
            return Optional.empty();
        }
        if (!(f.get("agent") instanceof String agent)) {
            return Optional.empty();
        }
        return Optional.of(new Heartbeat(agent, f.get("iface") instanceof String s ? s : "", num(f, "time"),
                num(f, "received"), num(f, "droppedKernel"), num(f, "droppedInterface"), num(f, "decodeErrors"),
                num(f, "recordsSent"), num(f, "spooled"), num(f, "dropped"), workers, export(f)));
    }

    private static Export export(Map<String, Object> f) {
        if (!f.containsKey("exportDatagrams")) {
            return null;
        }
        return new Export(num(f, "exportDatagrams"), num(f, "exportRecords"), num(f, "exportRecordsLost"),
                num(f, "exportPacketsLost"), num(f, "exportSflowPackets"), num(f, "exportSflowDatagramsLost"),
                num(f, "exportDatagramsMalformed"), num(f, "exportersRefused"));
    }

    /** Reads an object's fields after its START_OBJECT: strings and integers into {@code f}, a "workers" array. */
    private static void readFields(JsonParser p, Map<String, Object> f, List<Worker> workers) throws IOException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            JsonToken t = p.nextToken();
            if (t == JsonToken.VALUE_STRING) {
                f.put(name, p.getText());
            } else if (t == JsonToken.VALUE_NUMBER_INT) {
                f.put(name, p.getLongValue());
            } else if (t == JsonToken.START_ARRAY && name.equals("workers") && workers != null) {
                for (JsonToken e = p.nextToken(); e != null && e != JsonToken.END_ARRAY; e = p.nextToken()) {
                    if (e != JsonToken.START_OBJECT) {
                        p.skipChildren();
                        continue;
                    }
                    Map<String, Object> w = new HashMap<>();
                    readFields(p, w, null);
                    workers.add(new Worker(num(w, "received"), num(w, "droppedKernel"), num(w, "droppedInterface"),
                            num(w, "droppedAgent")));
                }
            } else {
                p.skipChildren();
            }
        }
    }

    private static long num(Map<String, Object> f, String key) {
        return f.get(key) instanceof Long l ? l : 0L;
    }
}
