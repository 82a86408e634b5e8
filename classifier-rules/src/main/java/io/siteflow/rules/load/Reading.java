package io.siteflow.rules.load;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Typed access to a {@link YamlNode} tree that reports every shape problem (wrong type, unknown or missing
 * key) to the {@link Diagnostics} and carries on. Not thread-safe; one per load.
 */
final class Reading {
    private final Diagnostics diagnostics;

    Reading(Diagnostics diagnostics) {
        this.diagnostics = diagnostics;
    }

    Diagnostics diagnostics() {
        return diagnostics;
    }

    /** A node with the key path that leads to it. */
    record At(YamlNode node, String path) {
    }

    /**
     * The entries of a mapping by key. Unknown keys are reported with the nearest valid key; missing required
     * keys are reported at the mapping. Empty when the node is no mapping.
     */
    Optional<Map<String, At>> mapping(At at, List<String> allowed, List<String> required) {
        if (!(at.node() instanceof YamlNode.Mapping m)) {
            wrongType(at, "a mapping");
            return Optional.empty();
        }
        Map<String, At> out = new LinkedHashMap<>();
        for (YamlNode.Entry e : m.entries()) {
            String path = child(at.path(), e.key().text());
            if (!allowed.contains(e.key().text())) {
                String hint = KeySuggester.nearest(e.key().text(), allowed)
                        .map(s -> "unknown key, did you mean \"" + s + "\"?")
                        .orElse("unknown key (expected one of: " + String.join(", ", allowed) + ")");
                diagnostics.error(e.key(), path, hint);
                continue;
            }
            out.put(e.key().text(), new At(e.value(), path));
        }
        for (String r : required) {
            if (!out.containsKey(r) && m.entries().stream().noneMatch(e -> e.key().text().equals(r))) {
                diagnostics.error(m, at.path(), "missing key \"" + r + "\"");
            }
        }
        return Optional.of(out);
    }

    /** The entries of a mapping whose keys are names (like {@code sites:}). */
    Optional<List<Map.Entry<YamlNode.Key, At>>> namedEntries(At at) {
        if (!(at.node() instanceof YamlNode.Mapping m)) {
            wrongType(at, "a mapping");
            return Optional.empty();
        }
        List<Map.Entry<YamlNode.Key, At>> out = new ArrayList<>();
        for (YamlNode.Entry e : m.entries()) {
            out.add(Map.entry(e.key(), new At(e.value(), child(at.path(), e.key().text()))));
        }
        return Optional.of(out);
    }

    /** The items of a list, each with its path; a single scalar counts as a list of one. */
    List<At> items(At at) {
        if (at.node() instanceof YamlNode.Sequence s) {
            List<At> out = new ArrayList<>();
            for (int i = 0; i < s.items().size(); i++) {
                out.add(new At(s.items().get(i), at.path() + "[" + i + "]"));
            }
            return out;
        }
        if (at.node() instanceof YamlNode.Scalar sc && sc.type() != YamlNode.ScalarType.NULL) {
            return List.of(at);
        }
        wrongType(at, "a list");
        return List.of();
    }

    /** The items of a list that must hold something. */
    List<At> nonEmptyItems(At at) {
        List<At> items = items(at);
        if (items.isEmpty() && at.node() instanceof YamlNode.Sequence) {
            diagnostics.error(at.node(), at.path(), "empty list (leave the key out instead)");
        }
        return items;
    }

    /** The text of a non-null scalar. */
    Optional<YamlNode.Scalar> scalar(At at) {
        if (at.node() instanceof YamlNode.Scalar s && s.type() != YamlNode.ScalarType.NULL) {
            return Optional.of(s);
        }
        wrongType(at, "a value");
        return Optional.empty();
    }

    void error(At at, String message) {
        diagnostics.error(at.node(), at.path(), message);
    }

    void warning(At at, String message) {
        diagnostics.warning(at.node().line(), at.node().column(), at.path(), message);
    }

    private void wrongType(At at, String expected) {
        diagnostics.error(at.node(), at.path(), "expected " + expected + ", found " + at.node().kind());
    }

    static String child(String path, String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    /** Characters of a value a message quotes at most. */
    static final int QUOTE_MAX = 64;

    /**
     * {@code "text"} as messages quote values; a value longer than {@value #QUOTE_MAX} characters is cut:
     * {@code "0.90000000000...0001" (300 characters)}, so a message stays short whatever the file holds.
     */
    static String quote(String text) {
        if (text.length() <= QUOTE_MAX) {
            return "\"" + text + "\"";
        }
        return "\"" + text.substring(0, QUOTE_MAX / 2) + "..." + text.substring(text.length() - QUOTE_MAX / 4)
                + "\" (" + text.length() + " characters)";
    }
}
