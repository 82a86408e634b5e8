package io.siteflow.processor.http;

import io.javalin.http.Context;
import io.siteflow.model.Digits;
import io.siteflow.rules.model.Category;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Reads and validates query parameters; a bad value throws {@link BadRequest} with a message naming the
 * parameter and the value. Stateless.
 */
final class Params {
    private Params() {
    }

    /** A request parameter that is missing or malformed; the API answers 400 with the message. */
    static final class BadRequest extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BadRequest(String message) {
            super(message);
        }
    }

    /** The latest instant a time parameter may give: the end of year 9999. */
    static final Instant LAST = Instant.parse("9999-12-31T23:59:59.999Z");

    /**
     * Epoch ms or an ISO-8601 instant ({@code 2026-11-29T22:00:00Z}) from 1970 to the end of 9999; required.
     * Anything else (including an instant no epoch ms can hold, {@code +999999999-12-31T23:59:59Z}) is a
     * {@link BadRequest} naming the parameter.
     */
    static long time(Context ctx, String name) {
        String v = ctx.queryParam(name);
        if (v == null || v.isBlank()) {
            throw new BadRequest(name + ": required (epoch ms or ISO-8601 instant)");
        }
        Instant t;
        if (Digits.ascii(v) && v.length() <= 18) {
            t = Instant.ofEpochMilli(Long.parseLong(v));
        } else {
            try {
                t = Instant.parse(v);
            } catch (DateTimeParseException e) {
                throw new BadRequest(name + ": " + quote(v) + " is neither epoch ms nor an ISO-8601 instant");
            }
        }
        if (t.isBefore(Instant.EPOCH) || t.isAfter(LAST)) {
            throw new BadRequest(name + ": " + quote(v) + " is outside " + Instant.EPOCH + " to " + LAST);
        }
        return t.toEpochMilli();
    }

    /** {@code "value"}, cut after 100 characters. */
    static String quote(String v) {
        return "\"" + (v.length() > 100 ? v.substring(0, 100) + "..." : v) + "\"";
    }

    /** An integer in {@code [min, max]}, {@code dflt} when absent. */
    static int integer(Context ctx, String name, int dflt, int min, int max) {
        String v = ctx.queryParam(name);
        if (v == null || v.isEmpty()) {
            return dflt;
        }
        try {
            int n = Integer.parseInt(v);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new BadRequest(name + ": \"" + v + "\" is not a number from " + min + " to " + max);
    }

    /** {@code true}/{@code false}, {@code false} when absent. */
    static boolean flag(Context ctx, String name) {
        String v = ctx.queryParam(name);
        if (v == null || v.isEmpty() || v.equals("false")) {
            return false;
        }
        if (v.equals("true")) {
            return true;
        }
        throw new BadRequest(name + ": \"" + v + "\" is not true or false");
    }

    /** A category name (any case), null when absent. */
    static String category(Context ctx) {
        String v = ctx.queryParam("category");
        if (v == null || v.isEmpty()) {
            return null;
        }
        if (!Category.isName(v)) {
            throw new BadRequest("category: \"" + v + "\" is not one of "
                    + Arrays.stream(Category.all()).map(Enum::name).collect(Collectors.joining(", ")));
        }
        return Category.parse(v).name();
    }

    /** {@code window=latest}: true; absent: false (the cumulative verdicts). */
    static boolean latest(Context ctx) {
        String v = ctx.queryParam("window");
        if (v == null || v.isEmpty()) {
            return false;
        }
        if (v.equals("latest")) {
            return true;
        }
        throw new BadRequest("window: \"" + v + "\" is not latest (leave it out for the cumulative verdicts)");
    }

    /** A required non-blank text. */
    static String text(Context ctx, String name) {
        String v = ctx.queryParam(name);
        if (v == null || v.isBlank()) {
            throw new BadRequest(name + ": required");
        }
        return v;
    }
}
