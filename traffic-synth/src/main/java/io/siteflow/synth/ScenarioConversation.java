package io.siteflow.synth;

/** A conversation of a scenario with its category and the hosts at its two ends. */
public record ScenarioConversation(TrafficCategory category, ClusterHost client, ClusterHost server,
        Conversation conversation) {

    /** IP bytes of both directions. */
    public long ipBytes() {
        return conversation.fromClient().ipBytes() + conversation.fromServer().ipBytes();
    }

    /** True when {@code host} is one end and the other end is in another region. */
    public boolean crossSiteFor(ClusterHost host) {
        ClusterHost other = client.equals(host) ? server : server.equals(host) ? client : null;
        return other != null && !other.region().equals(host.region());
    }
}
