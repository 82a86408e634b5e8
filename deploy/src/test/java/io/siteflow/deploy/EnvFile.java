package io.siteflow.deploy;

import java.util.LinkedHashMap;
import java.util.Map;

/** A settings file as systemd's {@code EnvironmentFile=} reads it: {@code KEY=value} lines, quotes removed. */
final class EnvFile {
    private EnvFile() {
    }

    /** The assignments that are not commented out, in file order. */
    static Map<String, String> parse(String text) {
        Map<String, String> env = new LinkedHashMap<>();
        for (String raw : text.split("\n")) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int eq = line.indexOf('=');
            if (eq < 1) {
                throw new AssertionError("not KEY=value: " + line);
            }
            String value = line.substring(eq + 1).strip();
            if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
                value = value.substring(1, value.length() - 1);
            }
            env.put(line.substring(0, eq).strip(), value);
        }
        return env;
    }

    /** The sample of conf/ that install.sh puts at an {@code EnvironmentFile=} path /etc/default/siteflow-X. */
    static String sampleFor(String environmentFile) {
        String prefix = "/etc/default/siteflow-";
        if (!environmentFile.startsWith(prefix)) {
            throw new AssertionError("EnvironmentFile outside /etc/default/siteflow-*: " + environmentFile);
        }
        return "conf/" + environmentFile.substring(prefix.length()) + ".env";
    }
}
