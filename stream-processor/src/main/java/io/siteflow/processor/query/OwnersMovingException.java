package io.siteflow.processor.query;

import io.siteflow.rules.verdict.Verdict;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Some audited servers cannot be answered for now because the owner of their task is moving: the instances are
 * rebalancing, the owner does not answer (it died; its task moves after the consumer group notices), or the
 * new owner is still restoring the task's stores. Rather than a wrong or partial number (an empty aggregate, a
 * store half restored) the answer names them; the HTTP API makes it a 503. Immutable.
 */
public final class OwnersMovingException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** A server whose verdicts are not answered now, and why ({@code owner of wls3 (10.2.0.20) is moving: ...}). */
    public record Unavailable(String server, String name, String reason) {
    }

    private final transient List<Unavailable> unavailable;
    private final transient List<Verdict> answered;
    private final int servers;

    /**
     * @param unavailable the servers not answered, at least one
     * @param answered    the cumulative verdicts of the servers that were answered
     * @param servers     how many audited servers there are
     */
    public OwnersMovingException(List<Unavailable> unavailable, List<Verdict> answered, int servers) {
        super("verdicts of " + unavailable.size() + " of " + servers
                + " audited servers are temporarily unavailable: their owner is moving");
        if (unavailable.isEmpty()) {
            throw new IllegalArgumentException("no unavailable server");
        }
        this.unavailable = List.copyOf(unavailable);
        this.answered = List.copyOf(answered);
        this.servers = servers;
    }

    public List<Unavailable> unavailable() {
        return unavailable;
    }

    /** The cumulative verdicts of the servers that were answered, sorted as {@code cumulativeVerdicts} sorts. */
    public List<Verdict> answered() {
        return answered;
    }

    public int servers() {
        return servers;
    }

    /** The reasons of all unavailable servers, joined with {@code "; "}. */
    public String reason() {
        return unavailable.stream().map(Unavailable::reason).collect(Collectors.joining("; "));
    }
}
