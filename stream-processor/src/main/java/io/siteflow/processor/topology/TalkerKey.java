package io.siteflow.processor.topology;

import io.siteflow.rules.model.Category;

/**
 * Key of a talker row: the audited server ({@code local}), the remote end, the category and the service port
 * on the side that offers it (the other side's ephemeral port is 0). Text form
 * {@code local|localPort|remote|remotePort|CATEGORY}. Immutable.
 */
public record TalkerKey(String local, int localPort, String remote, int remotePort, Category category) {

    public String text() {
        return local + "|" + localPort + "|" + remote + "|" + remotePort + "|" + category.name();
    }

    /** @throws IllegalArgumentException when the text is not {@link #text()} output */
    public static TalkerKey parse(String text) {
        String[] p = text.split("\\|");
        if (p.length != 5) {
            throw new IllegalArgumentException("talker key: expected 5 parts, got \"" + text + "\"");
        }
        return new TalkerKey(p[0], Integer.parseInt(p[1]), p[2], Integer.parseInt(p[3]), Category.parse(p[4]));
    }
}
