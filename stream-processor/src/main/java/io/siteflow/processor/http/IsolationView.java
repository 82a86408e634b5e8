package io.siteflow.processor.http;

import io.javalin.http.Context;
import io.siteflow.processor.query.SiteflowQueries;
import io.siteflow.rules.isolation.IsolationInputs;
import io.siteflow.rules.isolation.IsolationReport;

/**
 * What {@code /api/isolation}, {@code /api/isolation/report} and {@code /api/isolation/propose} answer (docs/API.md,
 * "Isolation"): the isolation inputs of a period ({@link SiteflowQueries#isolation}) made into the auditor's report
 * ({@link IsolationReport#of}, the same as {@code siteflow isolation check} makes offline) or a proposed policy.
 * Stateless.
 */
final class IsolationView {
    /** The start of the default period: everything the processor retains. */
    static final long ALL_FROM = 0;
    /** The end of the default period: the last instant a time parameter may give ({@link Params#LAST}). */
    static final long ALL_TO = Params.LAST.toEpochMilli();
    /** The most {@code minFlows} may ask. */
    static final int MAX_MIN_FLOWS = 1_000_000_000;

    private IsolationView() {
    }

    /** A period {@code [from, to)}, epoch ms. */
    record Period(long from, long to) {
    }

    /** No site model is in force yet: nothing to decide flows against (503). */
    static final class NoModel extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NoModel() {
            super("isolation: no site model in force yet (the processor reads it from siteflow.sites)");
        }
    }

    /** The site model in force has no {@code isolation:} block (404); a proposal can still be made. */
    static final class NoPolicy extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NoPolicy(String modelVersion) {
            super("isolation: the site model in force (" + modelVersion + ") has no isolation: block; "
                    + "GET /api/isolation/propose proposes one from the traffic");
        }
    }

    /**
     * {@code from} and {@code to} as given ({@link Params#time}); when {@code optional}, each one left out is the
     * default period's end ({@link #ALL_FROM}, {@link #ALL_TO}: everything retained).
     *
     * @throws Params.BadRequest for a malformed time, a missing one that is required, or {@code to} not after
     *                           {@code from}
     */
    static Period period(Context ctx, boolean optional) {
        long from = optional && absent(ctx, "from") ? ALL_FROM : Params.time(ctx, "from");
        long to = optional && absent(ctx, "to") ? ALL_TO : Params.time(ctx, "to");
        if (to <= from) {
            throw new Params.BadRequest("to: " + Params.quote(ctx.queryParamMap().containsKey("to") ? ctx.queryParam("to")
                    : String.valueOf(to)) + " is not after from (" + from + ")");
        }
        return new Period(from, to);
    }

    private static boolean absent(Context ctx, String name) {
        String v = ctx.queryParam(name);
        return v == null || v.isEmpty();
    }

    /**
     * The inputs of the period, decided by the model in force (against the empty policy when it has none).
     *
     * @throws NoModel before a site model is in force
     */
    static IsolationInputs inputs(SiteflowQueries q, Period p) {
        return q.isolation(p.from(), p.to()).orElseThrow(NoModel::new);
    }

    /**
     * The auditor's report of the period.
     *
     * @throws NoModel  before a site model is in force
     * @throws NoPolicy when the model in force has no {@code isolation:} block
     */
    static IsolationReport report(SiteflowQueries q, Period p) {
        IsolationInputs in = inputs(q, p);
        if (in.evaluator().classifier().model().isolation().isEmpty()) {
            throw new NoPolicy(in.evaluator().classifier().model().version());
        }
        return IsolationReport.of(in);
    }
}
