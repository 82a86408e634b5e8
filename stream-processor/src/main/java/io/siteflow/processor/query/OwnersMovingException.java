package io.siteflow.processor.query;

import io.siteflow.rules.model.Host;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The one "unavailable" answer of {@link StreamsQueries} for keys whose owner is moving: the instances are
 * rebalancing, the owner does not answer (it died; its task moves after the consumer group notices), or the
 * new owner is still restoring the task's stores. Every query that reads a key's owner (cumulative verdicts and the
 * links view built on them, the DB call histograms, the site comparison) throws it naming every such key and why,
 * with what it could answer for the others, rather than a wrong or partial number (an empty aggregate, a store half
 * restored, a list with some servers left out). The HTTP API makes it a 503; the event stream sends it as the
 * view's event. Immutable.
 */
public final class OwnersMovingException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * A key not answered now, and why ({@code owner of wls3 (10.2.0.20) is moving: ...}).
     *
     * @param server the address whose task is asked: an audited server's, or a database's for the site comparison
     * @param name   its host name in the site model
     */
    public record Unavailable(String server, String name, String reason) {

        /** {@code host}'s owner is moving, {@code why}. */
        public static Unavailable of(Host host, String why) {
            return new Unavailable(host.address(), host.name(), "owner of " + host.name() + " (" + host.address()
                    + ") is moving: " + why);
        }
    }

    private final transient List<Unavailable> unavailable;
    private final transient List<?> answered;
    private final int keys;

    /**
     * @param what        what was not answered, plural ({@code verdicts})
     * @param ofWhat      what the keys are, plural ({@code audited servers})
     * @param unavailable the keys not answered, at least one
     * @param answered    the answer for the keys that were answered, sorted as the whole answer is
     * @param keys        how many keys were asked
     */
    public OwnersMovingException(String what, String ofWhat, List<Unavailable> unavailable, List<?> answered,
                                 int keys) {
        super(what + " of " + unavailable.size() + " of " + keys + " " + ofWhat
                + " are temporarily unavailable: their owner is moving");
        if (unavailable.isEmpty()) {
            throw new IllegalArgumentException("no unavailable key");
        }
        this.unavailable = List.copyOf(unavailable);
        this.answered = List.copyOf(answered);
        this.keys = keys;
    }

    public List<Unavailable> unavailable() {
        return unavailable;
    }

    /**
     * The answer for the keys that were answered: for {@code cumulativeVerdicts} the cumulative verdicts of the
     * others, for {@code dbCallHistograms} their histograms, for {@code dbSites} the comparisons of the other
     * databases.
     */
    public List<?> answered() {
        return answered;
    }

    /** How many keys were asked (audited servers, or databases). */
    public int servers() {
        return keys;
    }

    /** The reasons of all unavailable keys, joined with {@code "; "}. */
    public String reason() {
        return unavailable.stream().map(Unavailable::reason).collect(Collectors.joining("; "));
    }
}
