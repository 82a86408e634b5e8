package io.siteflow.rules.importer;

/** Port numbers as the domain writes them. */
final class Ports {
    private Ports() {
    }

    /** The port, or 0 (reported) when {@code text} is not 1-65535. */
    static int parse(String text, Origin at, String element, Findings findings) {
        if (text.matches("\\d{1,5}")) {
            int p = Integer.parseInt(text);
            if (p >= 1 && p <= 65535) {
                return p;
            }
        }
        findings.error(at, element, "\"" + text + "\" is not a port (1-65535)");
        return 0;
    }
}
