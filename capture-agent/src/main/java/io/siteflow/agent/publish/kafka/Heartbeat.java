package io.siteflow.agent.publish.kafka;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Objects;

/**
 * One agent heartbeat on {@code siteflow.agents}, keyed by agent id: capture and publish counters,
 * all totals since the agent started. Immutable.
 *
 * @param agent            agent id
 * @param iface            interface or capture file
 * @param time             epoch ms when the counters were read
 * @param received         packets received
 * @param droppedKernel    packets the kernel dropped
 * @param droppedInterface packets the interface dropped
 * @param decodeErrors     packets that could not be decoded
 * @param recordsSent      flow records acknowledged by Kafka
 * @param spooled          flow records written to the spool
 * @param dropped          flow records lost (queue or spool full)
 */
public record Heartbeat(String agent, String iface, long time, long received, long droppedKernel,
        long droppedInterface, long decodeErrors, long recordsSent, long spooled, long dropped) {
    private static final JsonFactory FACTORY = new JsonFactory();

    public Heartbeat {
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(iface, "iface");
    }

    /** {@code {"agent":..,"iface":..,"time":..,"received":..,...}} as UTF-8, fields in component order. */
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
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
