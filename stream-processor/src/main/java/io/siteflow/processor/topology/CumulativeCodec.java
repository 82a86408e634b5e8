package io.siteflow.processor.topology;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.siteflow.rules.verdict.PairAggregate;
import io.siteflow.rules.verdict.PairAggregateJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * Store forms of a cumulative aggregate, which lives as long as the processor: everything but the DB connection
 * lifetimes in one value ({@code PairAggregateJson} with an empty {@code dbConnections}), and one small
 * {@code [first, last]} value per DB connection in its own store. The bounded part (categories, addresses, RTT
 * histogram, top flows) is rewritten per record; the connections, which grow with every new DB connection, are
 * not, so neither the per-record cost nor a changelog record grows with the pair's age. Stateless.
 */
final class CumulativeCodec {
    private static final JsonFactory FACTORY = new JsonFactory();

    /** A PairAggregate without its DB connections (they are dropped when written). */
    static final Serde<PairAggregate> COMPACT = Serdes.serdeFrom(
            (topic, a) -> a == null ? null : withoutConnections(PairAggregateJson.toBytes(a)),
            TopologySpec.PAIR_AGGREGATE.deserializer());

    /** A connection lifetime {@code [first, last]} in epoch ms, 16 bytes. */
    static final Serde<long[]> LIFETIME = Serdes.serdeFrom(
            (topic, l) -> l == null ? null : ByteBuffer.allocate(16).putLong(l[0]).putLong(l[1]).array(),
            (topic, b) -> {
                if (b == null) {
                    return null;
                }
                ByteBuffer buf = ByteBuffer.wrap(b);
                return new long[] {buf.getLong(), buf.getLong()};
            });

    private CumulativeCodec() {
    }

    /** Key of one connection of a pair: {@code server|remoteSite|connection}; a prefix scan by pair finds them. */
    static String connectionKey(String pairKey, String connection) {
        return pairKey + "|" + connection;
    }

    /** The JSON with {@code dbConnections} emptied. */
    static byte[] withoutConnections(byte[] json) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(json.length);
        try (JsonParser p = FACTORY.createParser(json); JsonGenerator g = FACTORY.createGenerator(out)) {
            p.nextToken();
            g.writeStartObject();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                p.nextToken();
                g.writeFieldName(name);
                if (name.equals("dbConnections")) {
                    p.skipChildren();
                    g.writeStartObject();
                    g.writeEndObject();
                } else {
                    g.copyCurrentStructure(p);
                }
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
