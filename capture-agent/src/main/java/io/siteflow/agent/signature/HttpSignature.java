package io.siteflow.agent.signature;

import io.siteflow.agent.decode.Bytes;

/**
 * HTTP/1.x requests and responses, and the HTTP/2 cleartext connection preface.
 *
 * <ul>
 *   <li>Request: a method ({@code GET POST HEAD PUT DELETE OPTIONS PATCH CONNECT TRACE}) and a space,
 *       then a printable request target. When the line end is captured, the line must end with
 *       {@code  HTTP/1.} and a digit;
 *       when the capture stops first, at least one printable target byte after the method suffices
 *       (so {@code GET /} in 5 bytes is HTTP).</li>
 *   <li>Response: {@code HTTP/1.} and a digit and a space: 9 bytes.</li>
 *   <li>HTTP/2 preface {@code PRI * HTTP/2.0}: 14 bytes.</li>
 * </ul>
 * Stateless.
 */
final class HttpSignature {

    private static final byte[][] METHODS = {
        Bytes.ascii("GET "), Bytes.ascii("POST "), Bytes.ascii("HEAD "), Bytes.ascii("PUT "),
        Bytes.ascii("DELETE "), Bytes.ascii("OPTIONS "), Bytes.ascii("PATCH "), Bytes.ascii("CONNECT "),
        Bytes.ascii("TRACE "),
    };
    private static final byte[] VERSION = Bytes.ascii(" HTTP/1.");
    private static final byte[] RESPONSE = Bytes.ascii("HTTP/1.");
    private static final byte[] PREFACE = Bytes.ascii("PRI * HTTP/2.0");

    private HttpSignature() {
    }

    static boolean matches(byte[] d, int off, int cap) {
        int end = off + cap;
        int first = d[off];
        if (first == 'H' && Bytes.startsWith(d, off, end, RESPONSE)) {
            return cap >= 9 && Bytes.isDigit(d[off + 7]) && d[off + 8] == ' ';
        }
        if (first == 'P' && Bytes.startsWith(d, off, end, PREFACE)) {
            return true;
        }
        if (first < 'C' || first > 'T') {
            return false;
        }
        for (byte[] m : METHODS) {
            if (m[0] == first && Bytes.startsWith(d, off, end, m)) {
                return requestLine(d, off + m.length, end);
            }
        }
        return false;
    }

    /** Scans the request target and version from {@code i}; see the class comment. */
    private static boolean requestLine(byte[] d, int i, int end) {
        if (i >= end || d[i] == ' ') {
            return false;
        }
        for (int k = i; k < end; k++) {
            int b = d[k];
            if (b == '\r' || b == '\n') {
                int version = k - VERSION.length - 1;
                return version > i && Bytes.startsWith(d, version, k, VERSION) && Bytes.isDigit(d[k - 1]);
            }
            if (!Bytes.isPrintable(b)) {
                return false;
            }
        }
        return true;
    }
}
