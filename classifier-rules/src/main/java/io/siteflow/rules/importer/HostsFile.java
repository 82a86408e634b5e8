package io.siteflow.rules.importer;

import io.siteflow.model.IpAddresses;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A hosts file ({@code /etc/hosts} format: an address, then names; {@code #} comments). A name on several
 * lines has several addresses (a SCAN name), in file order. Names are case-insensitive. Immutable.
 */
public final class HostsFile {
    private final String fileName;
    private final Map<String, List<String>> addresses;

    private HostsFile(String fileName, Map<String, List<String>> addresses) {
        this.fileName = fileName;
        this.addresses = addresses;
    }

    /** No file given: no name resolves. */
    public static HostsFile none() {
        return new HostsFile("", Map.of());
    }

    /**
     * Reads the file; a line whose first word is no IP address is reported and skipped.
     *
     * @throws IOException when it cannot be read
     */
    public static HostsFile read(Path file, Findings findings) throws IOException {
        return parse(file.toString(), Files.readString(file, StandardCharsets.UTF_8), findings);
    }

    static HostsFile parse(String fileName, String text, Findings findings) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        String[] lines = text.split("\n", -1);
        for (int n = 0; n < lines.length; n++) {
            String line = lines[n];
            int hash = line.indexOf('#');
            String[] words = (hash >= 0 ? line.substring(0, hash) : line).trim().split("\\s+");
            if (words[0].isEmpty()) {
                continue;
            }
            if (!isAddress(words[0])) {
                findings.warning(new Origin(fileName, n + 1, line.indexOf(words[0]) + 1), "",
                        "\"" + words[0] + "\" is not an IP address; line ignored");
                continue;
            }
            for (int w = 1; w < words.length; w++) {
                List<String> list = out.computeIfAbsent(words[w].toLowerCase(Locale.ROOT), k -> new ArrayList<>());
                if (!list.contains(words[0])) {
                    list.add(words[0]);
                }
            }
        }
        return new HostsFile(fileName, Map.copyOf(out));
    }

    static boolean isAddress(String text) {
        try {
            IpAddresses.parse(text);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The file's name as given, {@code ""} when there is none. */
    public String fileName() {
        return fileName;
    }

    /** The addresses of a name, in file order; empty when it is not in the file. */
    public List<String> resolve(String name) {
        return addresses.getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
    }
}
