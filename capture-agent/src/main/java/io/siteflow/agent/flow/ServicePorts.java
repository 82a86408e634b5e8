package io.siteflow.agent.flow;

/**
 * Which end of a flow already running when capture began is the server: the end on a known service
 * port, else the end on the lower port. The flow table and the flow-export collector ({@code export.BiflowJoiner})
 * both decide by it; the collector and the offline flow-log readers ({@code siteflow audit}) decide a joined pair of
 * unidirectional records by {@link #initiator}. Static; thread-safe.
 */
public final class ServicePorts {
    private static final int SYN = 0x02;
    private static final int ACK = 0x10;
    private static final boolean[] KNOWN = new boolean[65536];

    static {
        for (int p = 1; p < 1024; p++) {
            KNOWN[p] = true;
        }
        int[] extra = {1433, 1521, 1522, 1525, 1526, 2049, 2181, 2483, 2484, 3306, 3389, 5432, 5556, 5672, 6100,
            6200, 6379, 7001, 7002, 7574, 8001, 8008, 8080, 8088, 8443, 8888, 9001, 9002, 9042, 9092, 9093, 9200,
            9300, 11211, 27017, 61616};
        for (int p : extra) {
            KNOWN[p] = true;
        }
    }

    private ServicePorts() {
    }

    /**
     * Decides the initiator of a flow from its ports alone.
     *
     * @return 1 when the first port's end is the initiator (client), -1 when the second's is, 0 when the
     *         ports do not tell
     */
    public static int initiatorByPorts(int port1, int port2) {
        boolean k1 = KNOWN[port1];
        boolean k2 = KNOWN[port2];
        if (k1 != k2) {
            return k2 ? 1 : -1;
        }
        if (port1 == port2) {
            return 0;
        }
        return port1 > port2 ? 1 : -1;
    }

    /**
     * Decides the initiator of a conversation known from its two directions' exported records: the end whose
     * direction has SYN without ACK in its TCP flags when exactly one does (TCP only), else {@link #initiatorByPorts}
     * when either port is set.
     *
     * @param aFlags the TCP flags OR-ed over what end a sent, 0 when not exported
     * @return 1 when end a is the initiator, -1 when end b is, 0 when neither the flags nor the ports tell
     */
    public static int initiator(boolean tcp, int aFlags, int bFlags, int aPort, int bPort) {
        if (tcp) {
            boolean aOpens = (aFlags & (SYN | ACK)) == SYN;
            boolean bOpens = (bFlags & (SYN | ACK)) == SYN;
            if (aOpens != bOpens) {
                return aOpens ? 1 : -1;
            }
        }
        return aPort != 0 || bPort != 0 ? initiatorByPorts(aPort, bPort) : 0;
    }
}
