package io.siteflow.lab;

import io.siteflow.synth.TrafficCategory;

/**
 * The servers the lab runs in region 1, and the category each one's conversations count under in the
 * truth. The categories are the ones {@code deploy/conf/sites.yaml} with the FMW default rules gives them.
 */
public enum LabService {
    /** Oracle Net listener: JDBC-like request/response over pooled TNS connections. */
    TNS(LabHost.DB1, 1521, false, TrafficCategory.DB),
    /** WebLogic cluster T3 (replication, RMI) on wls1 and wls2. */
    T3_WLS1(LabHost.WLS1, 7001, false, TrafficCategory.CLUSTER),
    T3_WLS2(LabHost.WLS2, 7001, false, TrafficCategory.CLUSTER),
    /** JMS over T3 on the JMS channel. */
    JMS_WLS1(LabHost.WLS1, 8011, false, TrafficCategory.JMS),
    JMS_WLS2(LabHost.WLS2, 8011, false, TrafficCategory.JMS),
    /** Coherence TCP message bus and TCMP datagrams. */
    TMB(LabHost.WLS1, 7574, false, TrafficCategory.COHERENCE),
    TCMP(LabHost.WLS1, 7574, true, TrafficCategory.COHERENCE),
    /** The admin server's HTTP administration port. */
    ADMIN_HTTP(LabHost.ADMIN1, 9002, false, TrafficCategory.ADMIN),
    /** The resolver. */
    DNS(LabHost.DNS1, 53, true, TrafficCategory.OTHER);

    private final LabHost host;
    private final int port;
    private final boolean udp;
    private final TrafficCategory category;

    LabService(LabHost host, int port, boolean udp, TrafficCategory category) {
        this.host = host;
        this.port = port;
        this.udp = udp;
        this.category = category;
    }

    public LabHost host() {
        return host;
    }

    public int port() {
        return port;
    }

    public boolean udp() {
        return udp;
    }

    public TrafficCategory category() {
        return category;
    }

    /** The category of a conversation with a region-1 server port; OTHER for a port the lab does not serve. */
    public static TrafficCategory categoryOf(int serverPort) {
        for (LabService s : values()) {
            if (s.port == serverPort) {
                return s.category;
            }
        }
        return TrafficCategory.OTHER;
    }
}
