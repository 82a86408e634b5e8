package io.siteflow.rules.importer;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The listeners of an Oracle Net connect descriptor: every {@code (ADDRESS=...(HOST=h)(PORT=p))} in it, in
 * order, whether inside an {@code ADDRESS_LIST}, a {@code DESCRIPTION_LIST} or directly in the
 * {@code DESCRIPTION}. Stateless.
 */
final class TnsDescriptor {
    private static final Pattern ADDRESS = Pattern.compile("\\(\\s*ADDRESS\\s*=", Pattern.CASE_INSENSITIVE);
    private static final Pattern HOST = Pattern.compile("\\(\\s*HOST\\s*=\\s*([^)\\s]+)\\s*\\)", Pattern.CASE_INSENSITIVE);
    private static final Pattern PORT = Pattern.compile("\\(\\s*PORT\\s*=\\s*(\\d{1,5})\\s*\\)", Pattern.CASE_INSENSITIVE);

    private TnsDescriptor() {
    }

    /** The listeners, or empty when no ADDRESS names both a HOST and a port 1-65535. */
    static Optional<List<Endpoint>> listeners(String descriptor) {
        List<Endpoint> out = new ArrayList<>();
        Matcher m = ADDRESS.matcher(descriptor);
        while (m.find()) {
            String address = descriptor.substring(m.end(), closing(descriptor, m.start()));
            Matcher h = HOST.matcher(address);
            Matcher p = PORT.matcher(address);
            if (h.find() && p.find()) {
                int port = Integer.parseInt(p.group(1));
                if (port >= 1 && port <= 65535) {
                    out.add(new Endpoint(h.group(1), port));
                }
            }
        }
        return out.isEmpty() ? Optional.empty() : Optional.of(out);
    }

    /** Index of the parenthesis closing the one at {@code open}, or the text's end when unbalanced. */
    static int closing(String s, int open) {
        int depth = 0;
        for (int i = open; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')' && --depth == 0) {
                return i;
            }
        }
        return s.length();
    }
}
