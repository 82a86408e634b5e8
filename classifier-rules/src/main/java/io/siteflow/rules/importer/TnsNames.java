package io.siteflow.rules.importer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * An Oracle {@code tnsnames.ora}: net service names ({@code A, B = (DESCRIPTION=...)}, case-insensitive,
 * {@code #} comments, entries over several lines) and their connect descriptors. Immutable.
 */
public final class TnsNames {
    /** One entry: its descriptor text and where it starts. */
    public record Entry(String alias, String descriptor, Origin origin) {
    }

    private final String fileName;
    private final Map<String, Entry> entries;

    private TnsNames(String fileName, Map<String, Entry> entries) {
        this.fileName = fileName;
        this.entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
    }

    /** No file given: every alias is unknown. */
    public static TnsNames none() {
        return new TnsNames("", Map.of());
    }

    /** The file's name as given, {@code ""} when there is none. */
    public String fileName() {
        return fileName;
    }

    /** @throws IOException when the file cannot be read */
    public static TnsNames read(Path file) throws IOException {
        return parse(file.toString(), Files.readString(file, StandardCharsets.UTF_8));
    }

    static TnsNames parse(String fileName, String text) {
        StringBuilder clean = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            int hash = line.indexOf('#');
            clean.append(hash >= 0 ? line.substring(0, hash) : line).append('\n');
        }
        String s = clean.toString();
        Map<String, Entry> out = new LinkedHashMap<>();
        int i = 0;
        while (i < s.length()) {
            int eq = s.indexOf('=', i);
            int open = eq < 0 ? -1 : s.indexOf('(', eq);
            if (open < 0) {
                break;
            }
            int close = TnsDescriptor.closing(s, open);
            String descriptor = s.substring(open, Math.min(close + 1, s.length())).replaceAll("\\s+", "");
            int nameStart = i + (s.substring(i, eq).length() - s.substring(i, eq).stripLeading().length());
            Origin at = origin(fileName, s, nameStart);
            for (String name : s.substring(i, eq).split(",")) {
                String alias = name.trim();
                if (!alias.isEmpty()) {
                    out.putIfAbsent(alias.toLowerCase(Locale.ROOT), new Entry(alias, descriptor, at));
                }
            }
            i = close + 1;
        }
        return new TnsNames(fileName, out);
    }

    private static Origin origin(String file, String s, int index) {
        int line = 1;
        int lineStart = 0;
        for (int k = 0; k < index; k++) {
            if (s.charAt(k) == '\n') {
                line++;
                lineStart = k + 1;
            }
        }
        return new Origin(file, line, index - lineStart + 1);
    }

    /** The entry for a net service name (case-insensitive; {@code soadb} also finds {@code SOADB.example.com}). */
    public Optional<Entry> find(String alias) {
        String key = alias.toLowerCase(Locale.ROOT);
        Entry e = entries.get(key);
        if (e != null) {
            return Optional.of(e);
        }
        return entries.entrySet().stream().filter(x -> x.getKey().startsWith(key + ".")).map(Map.Entry::getValue)
                .findFirst();
    }
}
