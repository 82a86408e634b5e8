package io.siteflow.agent.flow;

/**
 * Which end of a flow already running when capture began is the server: the end on a known service
 * port, else the end on the lower port. The flow table and the flow-export collector ({@code export.BiflowJoiner})
 * both decide by it. Static; thread-safe.
 */
public final class ServicePorts {
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
}
