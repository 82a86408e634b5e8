package io.siteflow.processor.http;

import io.javalin.http.Context;
import io.javalin.http.Handler;
import io.javalin.http.HttpStatus;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Answers only requests whose {@code Host} header names this server, so that a web page whose own name an
 * attacker points at this address (DNS rebinding) cannot read the API from a browser on this host or network:
 * the bound address, {@code localhost}, {@code 127.0.0.1}, {@code [::1]} and the names configured
 * ({@code --advertised-host}, {@code --http-allowed-host}). When bound to every address ({@code 0.0.0.0},
 * {@code ::}) any IP literal is accepted too: a browser sends an IP literal only for a page loaded from that IP,
 * which no rebinding can give. The port is not compared. A request without {@code Host} (HTTP/1.0) passes. Others
 * get 421 with {@code {"error": "Host \"evil.example\" is not a name of this server (--http-allowed-host adds
 * one)"}}. Immutable and thread-safe.
 */
final class HostCheck implements Handler {
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private final Set<String> names = new HashSet<>();
    private final boolean anyLiteral;

    /**
     * @param bind    the address the server listens on
     * @param allowed further names this server answers to (case is ignored)
     */
    HostCheck(String bind, List<String> allowed) {
        String b = normalise(bind);
        anyLiteral = b.equals("0.0.0.0") || b.equals("::") || b.equals("0:0:0:0:0:0:0:0");
        names.add(b);
        names.addAll(List.of("localhost", "127.0.0.1", "::1"));
        allowed.forEach(n -> names.add(normalise(n)));
    }

    @Override
    public void handle(Context ctx) {
        String host = ctx.header("Host");
        if (host == null || allows(host)) {
            return;
        }
        ctx.status(HttpStatus.MISDIRECTED_REQUEST).contentType("application/json").result(ApiJson.write(java.util.Map.of(
                "error", "Host " + quote(host) + " is not a name of this server (--http-allowed-host adds one)")));
        ctx.skipRemainingHandlers();
    }

    /** True when the {@code Host} header value (with or without port) names this server. */
    boolean allows(String header) {
        String h = normalise(stripPort(header.trim()));
        return names.contains(h) || anyLiteral && (IPV4.matcher(h).matches() || h.indexOf(':') >= 0);
    }

    private static String stripPort(String host) {
        if (host.startsWith("[")) {
            int end = host.indexOf(']');
            return end < 0 ? host : host.substring(1, end);
        }
        int colon = host.indexOf(':');
        return colon >= 0 && colon == host.lastIndexOf(':') ? host.substring(0, colon) : host;
    }

    private static String normalise(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        if (n.startsWith("[") && n.endsWith("]")) {
            n = n.substring(1, n.length() - 1);
        }
        return n.endsWith(".") ? n.substring(0, n.length() - 1) : n;
    }

    private static String quote(String s) {
        String cut = s.length() > 100 ? s.substring(0, 100) + "..." : s;
        return "\"" + cut + "\"";
    }
}
