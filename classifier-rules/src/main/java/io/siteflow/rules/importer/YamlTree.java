package io.siteflow.rules.importer;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A YAML document read with Jackson's streaming parser into nodes that keep their line and column: a mapping
 * ({@code entries}, keys in file order), a list ({@code items}) or a scalar ({@code text}). Immutable.
 */
record YamlTree(Map<String, YamlTree> entries, List<YamlTree> items, String text, Origin origin) {
    private static final Pattern MARK = Pattern.compile("line (\\d+), column (\\d+)");
    private static final YamlTree ABSENT = new YamlTree(Map.of(), List.of(), "", new Origin("", 0, 0));

    /** The value under a key, or an empty node. */
    YamlTree get(String key) {
        return entries.getOrDefault(key, ABSENT);
    }

    /** True when the mapping has the key. */
    boolean has(String key) {
        return entries.containsKey(key);
    }

    /**
     * Reads a file; a syntax error is reported with its line and column.
     *
     * @throws IOException when it cannot be read
     */
    static Optional<YamlTree> read(Path file, Findings findings) throws IOException {
        String shown = file.toString();
        String text = Files.readString(file, StandardCharsets.UTF_8);
        try (JsonParser p = new YAMLFactory().createParser(text)) {
            if (p.nextToken() == null) {
                findings.error(new Origin(shown, 1, 1), "", "empty file");
                return Optional.empty();
            }
            return Optional.of(node(p, shown));
        } catch (JsonProcessingException e) {
            findings.error(syntaxErrorAt(shown, e), "", "YAML syntax error: " + problem(e));
            return Optional.empty();
        }
    }

    /** SnakeYAML's last mark ({@code line 4, column 1}) is where it gave up; else the parser's location. */
    private static Origin syntaxErrorAt(String file, JsonProcessingException e) {
        JsonLocation l = e.getLocation();
        Origin at = l == null ? new Origin(file, 1, 1) : new Origin(file, Math.max(1, l.getLineNr()), Math.max(1, l.getColumnNr()));
        Matcher m = MARK.matcher(String.valueOf(e.getOriginalMessage()));
        while (m.find()) {
            at = new Origin(file, Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
        }
        return at;
    }

    /** The last unindented line of SnakeYAML's message: what it expected and found. */
    private static String problem(JsonProcessingException e) {
        return String.valueOf(e.getOriginalMessage()).lines().filter(x -> !x.isBlank() && !Character.isWhitespace(x.charAt(0)))
                .reduce((a, b) -> b).orElse("").trim();
    }

    private static YamlTree node(JsonParser p, String file) throws IOException {
        JsonLocation l = p.currentTokenLocation();
        Origin at = new Origin(file, l.getLineNr(), l.getColumnNr());
        JsonToken t = p.currentToken();
        if (t == JsonToken.START_OBJECT) {
            Map<String, YamlTree> entries = new LinkedHashMap<>();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String key = p.currentName();
                JsonLocation k = p.currentTokenLocation();
                p.nextToken();
                YamlTree value = node(p, file);
                // a mapping or list is placed at its key (the line that names it), a scalar at its value
                entries.putIfAbsent(key, value.text.isEmpty() && (!value.entries.isEmpty() || !value.items.isEmpty())
                        ? new YamlTree(value.entries, value.items, "", new Origin(file, k.getLineNr(), k.getColumnNr()))
                        : value);
            }
            return new YamlTree(entries, List.of(), "", at);
        }
        if (t == JsonToken.START_ARRAY) {
            List<YamlTree> items = new ArrayList<>();
            while (p.nextToken() != JsonToken.END_ARRAY) {
                items.add(node(p, file));
            }
            return new YamlTree(Map.of(), items, "", at);
        }
        String text = t == JsonToken.VALUE_NULL ? "" : p.getText();
        return new YamlTree(Map.of(), List.of(), text == null ? "" : text.trim(), at);
    }
}
