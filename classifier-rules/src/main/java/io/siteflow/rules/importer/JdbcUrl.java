package io.siteflow.rules.importer;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a JDBC URL says about where the database listens. Oracle thin forms: {@code @host:port:sid},
 * {@code @//host:port/service} (and without {@code //}), the {@code (DESCRIPTION=(ADDRESS_LIST=...))} long form
 * with any number of addresses, {@code @alias} (resolved through tnsnames.ora by the caller); LDAP URLs are
 * unsupported. Also {@code jdbc:postgresql://} and {@code jdbc:mysql://}. Stateless.
 */
public final class JdbcUrl {
    static final int ORACLE_PORT = 1521;
    private static final Pattern HOST_PORT_SID = Pattern.compile("([^:/()@\\s]+|\\[[0-9a-fA-F:]+\\]):(\\d{1,5}):[^:/\\s]+");
    private static final Pattern EZCONNECT = Pattern.compile("(?://)?([^:/()@\\s]+|\\[[0-9a-fA-F:]+\\])(?::(\\d{1,5}))?(?:/.*)?");
    private static final Pattern ALIAS = Pattern.compile("[A-Za-z][A-Za-z0-9_.$#-]*");
    private static final Pattern OTHER = Pattern.compile("jdbc:(postgresql|mysql|mariadb)://([^:/?]+)(?::(\\d{1,5}))?.*");

    /** The result: listener addresses, an alias to look up, or why the URL is of no use. */
    public sealed interface Target permits Listeners, Alias, Unusable {
    }

    /** The listeners the URL names, in URL order. */
    public record Listeners(List<Endpoint> endpoints) implements Target {
        public Listeners {
            endpoints = List.copyOf(endpoints);
        }
    }

    /** A net service name for tnsnames.ora. */
    public record Alias(String name) implements Target {
    }

    /** Why no listener could be found, e.g. {@code LDAP URLs are not supported}. */
    public record Unusable(String reason) implements Target {
    }

    private JdbcUrl() {
    }

    public static Target parse(String url) {
        String u = url.trim();
        if (u.isEmpty()) {
            return new Unusable("no URL");
        }
        Matcher other = OTHER.matcher(u);
        if (other.matches()) {
            int port = other.group(3) != null ? Integer.parseInt(other.group(3))
                    : other.group(1).equals("postgresql") ? 5432 : 3306;
            return new Listeners(List.of(new Endpoint(other.group(2), port)));
        }
        String lower = u.toLowerCase(Locale.ROOT);
        if (!lower.startsWith("jdbc:oracle:thin:")) {
            return new Unusable("URL " + u + " is not an Oracle thin, PostgreSQL or MySQL URL");
        }
        int at = u.indexOf('@');
        if (at < 0) {
            return new Unusable("URL " + u + " names no database (no @)");
        }
        return connectString(u, u.substring(at + 1).trim());
    }

    private static Target connectString(String url, String s) {
        String lower = s.toLowerCase(Locale.ROOT);
        if (lower.startsWith("ldap://") || lower.startsWith("ldaps://")) {
            return new Unusable("LDAP URL " + url + " is not supported");
        }
        if (s.startsWith("(")) {
            return TnsDescriptor.listeners(s).<Target>map(Listeners::new)
                    .orElse(new Unusable("URL " + url + " has no ADDRESS with HOST and PORT"));
        }
        Matcher m = HOST_PORT_SID.matcher(s);
        if (m.matches()) {
            return listener(m.group(1), m.group(2), url);
        }
        if (ALIAS.matcher(s).matches()) {
            return new Alias(s);
        }
        m = EZCONNECT.matcher(s);
        if (m.matches()) {
            return listener(m.group(1), m.group(2), url);
        }
        return new Unusable("URL " + url + " is not in a form siteflow reads");
    }

    private static Target listener(String host, String port, String url) {
        int p = port == null ? ORACLE_PORT : Integer.parseInt(port);
        if (p < 1 || p > 65535) {
            return new Unusable("URL " + url + ": \"" + port + "\" is not a port (1-65535)");
        }
        String h = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        return new Listeners(List.of(new Endpoint(h, p)));
    }
}
