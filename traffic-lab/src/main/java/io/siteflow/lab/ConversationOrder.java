package io.siteflow.lab;

import java.util.Comparator;

/** Orders conversations by client address, client port, server address, server port, protocol. */
final class ConversationOrder implements Comparator<ConversationTruth> {
    static final ConversationOrder INSTANCE = new ConversationOrder();

    @Override
    public int compare(ConversationTruth a, ConversationTruth b) {
        int c = a.client().compareTo(b.client());
        if (c == 0) {
            c = Integer.compare(a.clientPort(), b.clientPort());
        }
        if (c == 0) {
            c = a.server().compareTo(b.server());
        }
        if (c == 0) {
            c = Integer.compare(a.serverPort(), b.serverPort());
        }
        return c != 0 ? c : Integer.compare(a.proto(), b.proto());
    }
}
