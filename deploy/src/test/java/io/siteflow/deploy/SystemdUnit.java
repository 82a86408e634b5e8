package io.siteflow.deploy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A systemd unit file read as systemd reads it, far enough for the tests: sections, keys (repeatable),
 * {@code Environment=} assignments and the word expansion of {@code ExecStart=}.
 */
record SystemdUnit(String name, List<Entry> entries) {
    private static final Pattern BRACED = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)}");
    private static final Pattern BARE_WORD = Pattern.compile("\\$([A-Za-z_][A-Za-z0-9_]*)");

    /** One {@code key=value} line of a section. */
    record Entry(String section, String key, String value) {
    }

    static SystemdUnit parse(String name, String text) {
        List<Entry> entries = new ArrayList<>();
        String section = "";
        for (String raw : text.split("\n")) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#") || line.startsWith(";")) {
                continue;
            }
            if (line.startsWith("[")) {
                section = line.substring(1, line.indexOf(']'));
                continue;
            }
            int eq = line.indexOf('=');
            entries.add(new Entry(section, line.substring(0, eq).strip(), line.substring(eq + 1).strip()));
        }
        return new SystemdUnit(name, List.copyOf(entries));
    }

    /** Every value of a key in a section, in file order. */
    List<String> values(String section, String key) {
        return entries.stream().filter(e -> e.section.equals(section) && e.key.equals(key)).map(Entry::value).toList();
    }

    /** The one value of a key in a section. */
    String value(String section, String key) {
        List<String> v = values(section, key);
        if (v.size() != 1) {
            throw new AssertionError(name + ": [" + section + "] " + key + " set " + v.size() + " times: " + v);
        }
        return v.get(0);
    }

    /** The {@code Environment=} assignments, with {@code %H} standing for {@code host}. */
    Map<String, String> environment(String host) {
        Map<String, String> env = new LinkedHashMap<>();
        for (String line : values("Service", "Environment")) {
            for (String assignment : line.split("\\s+")) {
                int eq = assignment.indexOf('=');
                env.put(assignment.substring(0, eq), assignment.substring(eq + 1).replace("%H", host));
            }
        }
        return env;
    }

    /**
     * The words of {@code ExecStart=} after expansion: {@code ${NAME}} becomes the value as one word (or part
     * of one), a word {@code $NAME} becomes the value split at white space (no word when empty).
     *
     * @throws AssertionError naming the variable when {@code env} does not set one the command uses
     */
    List<String> execStart(Map<String, String> env) {
        List<String> words = new ArrayList<>();
        for (String word : value("Service", "ExecStart").split("\\s+")) {
            Matcher bare = BARE_WORD.matcher(word);
            if (bare.matches()) {
                String v = lookup(env, bare.group(1)).strip();
                if (!v.isEmpty()) {
                    words.addAll(List.of(v.split("\\s+")));
                }
                continue;
            }
            Matcher braced = BRACED.matcher(word);
            StringBuilder sb = new StringBuilder();
            while (braced.find()) {
                braced.appendReplacement(sb, Matcher.quoteReplacement(lookup(env, braced.group(1))));
            }
            braced.appendTail(sb);
            words.add(sb.toString());
        }
        return words;
    }

    private String lookup(Map<String, String> env, String variable) {
        String v = env.get(variable);
        if (v == null) {
            throw new AssertionError(name + ": ExecStart uses $" + variable
                    + " but neither Environment= nor the sample settings set it");
        }
        return v;
    }
}
