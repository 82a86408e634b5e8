package io.siteflow.processor.http;

import io.javalin.http.HttpStatus;
import io.siteflow.processor.query.InstanceClient;
import io.siteflow.processor.query.OwnersMovingException;
import io.siteflow.processor.query.WhatIfSource;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.streams.errors.InvalidStateStoreException;

/**
 * Why a view cannot answer now, as the API says it: the status and JSON body an endpoint answers with, and the
 * data of the view's event on {@code /api/events} (the same body with {@code status} first). One mapping for
 * both, so a page reads the same reason from either. Immutable.
 *
 * @param status     the HTTP status: 502 another instance did not answer, 503 not answerable yet (start-up,
 *                   a moving owner, no what-if source), 500 anything else (a bug)
 * @param body       {@code error} first, then what the kind adds ({@code reason}, {@code unavailable}, ...)
 * @param retryAfter true when a client should retry in a second (a moving owner)
 */
record ViewFailure(HttpStatus status, Map<String, Object> body, boolean retryAfter) {

    /**
     * The failure {@code e} of the view at {@code path} ({@code /api/verdicts} adds the answered verdicts of a moving
     * owner's answer, as {@code verdicts}).
     */
    static ViewFailure of(RuntimeException e, String path) {
        if (e instanceof OwnersMovingException m) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("error", m.getMessage());
            body.put("reason", m.reason());
            body.put("unavailable", m.unavailable());
            if (path.equals("/api/verdicts")) {
                body.put("verdicts", m.answered());
            }
            return new ViewFailure(HttpStatus.SERVICE_UNAVAILABLE, body, true);
        }
        if (e instanceof InvalidStateStoreException) {
            return error(HttpStatus.SERVICE_UNAVAILABLE, "state stores not queryable yet: " + e.getMessage());
        }
        if (e instanceof InstanceClient.RemoteQueryException) {
            return error(HttpStatus.BAD_GATEWAY, e.getMessage());
        }
        if (e instanceof WhatIfSource.Unavailable) {
            return error(HttpStatus.SERVICE_UNAVAILABLE, e.getMessage());
        }
        return error(HttpStatus.INTERNAL_SERVER_ERROR, "internal error: " + e);
    }

    private static ViewFailure error(HttpStatus status, String message) {
        return new ViewFailure(status, Map.of("error", message), false);
    }

    /** The endpoint's body: {@code {"error": ..., ...}}. */
    String json() {
        return ApiJson.write(body);
    }

    /** The event's data: {@code {"status": 503, "error": ..., ...}}, the endpoint's body with its status first. */
    String eventJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("status", status.getCode());
        m.putAll(body);
        return ApiJson.write(m);
    }
}
