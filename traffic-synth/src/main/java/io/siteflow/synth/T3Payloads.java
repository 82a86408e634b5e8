package io.siteflow.synth;

import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * WebLogic T3 byte streams: the text handshake ({@link #CLIENT_HELLO} from the connecting server, the
 * {@link #SERVER_HELLO} answer) and then length-prefixed messages: a 4-byte big-endian length that counts
 * itself, the T3 message header {@code 01 65 01 ff..ff 00 00 00 69 00 00 ea 60} and a Java-serialised
 * body ({@code ac ed 00 05}) naming the given classes (for JMS, {@code weblogic.jms.} classes).
 * Stateless; thread-safe when each caller uses its own {@link Random}.
 */
public final class T3Payloads {
    public static final byte[] CLIENT_HELLO = ascii("t3 12.2.1\nAS:255\nHL:19\nMS:10000000\n\n");
    public static final byte[] SERVER_HELLO = ascii("HELO:12.2.1.3.0.false\nAS:2048\nHL:19\n\n");
    /** Classes in the first messages of a cluster (RMI/replication) connection. */
    public static final String[] CLUSTER_CLASSES = {"weblogic.rjvm.ClassTableEntry",
        "weblogic.cluster.replication.ReplicationManager_12213_WLStub", "weblogic.rmi.internal.dgc.DGCServerImpl"};
    /** Classes in the first messages of a JMS connection. */
    public static final String[] JMS_CLASSES = {"weblogic.jms.client.JMSConnectionFactory",
        "weblogic.jms.frontend.FEProducerSendRequest", "weblogic.jms.common.TextMessageImpl"};
    private static final byte[] HEADER = {1, 0x65, 1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0x69, 0, 0, (byte) 0xEA,
        0x60, (byte) 0xAC, (byte) 0xED, 0, 5};
    /** Smallest message: length prefix and header. */
    public static final int MIN_MESSAGE = 4 + HEADER.length;

    private T3Payloads() {
    }

    /**
     * One message of exactly {@code size} bytes naming {@code classes} (each as {@code sr <len> <name>}, as far
     * as they fit), random bytes after them.
     *
     * @throws IllegalArgumentException when {@code size} is below {@link #MIN_MESSAGE}
     */
    public static byte[] message(Random random, int size, String... classes) {
        if (size < MIN_MESSAGE) {
            throw new IllegalArgumentException("T3 message of " + size + " bytes: at least " + MIN_MESSAGE);
        }
        byte[] m = new byte[size];
        random.nextBytes(m);
        Frames.putInt(m, 0, size);
        System.arraycopy(HEADER, 0, m, 4, HEADER.length);
        int at = MIN_MESSAGE;
        for (String name : classes) {
            byte[] n = ascii(name);
            if (at + 4 + n.length > size) {
                break;
            }
            m[at] = 0x73;
            m[at + 1] = 0x72;
            TnsPayloads.put16(m, at + 2, n.length);
            System.arraycopy(n, 0, m, at + 4, n.length);
            at += 4 + n.length;
        }
        return m;
    }

    /** The smallest size that holds every name in {@code classes}. */
    public static int sizeFor(String... classes) {
        int size = MIN_MESSAGE;
        for (String name : classes) {
            size += 4 + name.length();
        }
        return size;
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
