package io.siteflow.processor.http;

import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.javalin.http.HttpStatus;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Requires {@code Authorization: Bearer <token>} (or {@code ?token=<token>}, for {@code EventSource}, which
 * cannot set headers) and answers 401 with {@code WWW-Authenticate: Bearer} otherwise. The comparison takes
 * the same time whatever the mismatch. Thread-safe.
 */
final class BearerAuth implements Handler {
    private final byte[] token;

    BearerAuth(String token) {
        if (token.isBlank()) {
            throw new IllegalArgumentException("--http-token must not be blank");
        }
        this.token = token.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void handle(Context ctx) {
        if (matches(presented(ctx))) {
            return;
        }
        ctx.header("WWW-Authenticate", "Bearer realm=\"siteflow\"");
        ctx.status(HttpStatus.UNAUTHORIZED).contentType("application/json")
                .result("{\"error\":\"bearer token required\"}");
        ctx.skipRemainingHandlers();
    }

    private static String presented(Context ctx) {
        String h = ctx.header("Authorization");
        if (h != null && h.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return h.substring(7).trim();
        }
        String q = ctx.queryParam("token");
        return q == null ? "" : q;
    }

    private boolean matches(String presented) {
        return MessageDigest.isEqual(token, presented.getBytes(StandardCharsets.UTF_8));
    }
}
