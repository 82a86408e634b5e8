package io.siteflow.rules.load;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads YAML text with Jackson's streaming {@code YAMLParser} into a {@link YamlNode} tree that keeps the
 * position of every key and value. Syntax errors, duplicate keys, several documents and an empty file are
 * reported to the {@link Diagnostics}; the result is empty when the text could not be read whole.
 */
final class YamlTreeReader {
    private static final YAMLFactory FACTORY = new YAMLFactory();
    private static final Pattern MARK = Pattern.compile("line (\\d+), column (\\d+)");

    private final Diagnostics diagnostics;

    YamlTreeReader(Diagnostics diagnostics) {
        this.diagnostics = diagnostics;
    }

    /** The root node, or empty after reporting why there is none. */
    Optional<YamlNode> read(String text) {
        try (JsonParser p = FACTORY.createParser(text)) {
            JsonToken first = p.nextToken();
            if (first == null) {
                diagnostics.error(1, 1, "", "the file is empty");
                return Optional.empty();
            }
            YamlNode root = node(p, "");
            if (p.nextToken() != null) {
                JsonLocation at = p.currentTokenLocation();
                diagnostics.error(at.getLineNr(), at.getColumnNr(), "", "only one YAML document is allowed");
                return Optional.empty();
            }
            return Optional.of(root);
        } catch (JsonProcessingException e) {
            syntaxError(e);
            return Optional.empty();
        } catch (IOException e) {
            diagnostics.error(1, 1, "", "cannot read: " + e.getMessage());
            return Optional.empty();
        }
    }

    private YamlNode node(JsonParser p, String path) throws IOException {
        JsonLocation at = p.currentTokenLocation();
        int line = at.getLineNr();
        int col = at.getColumnNr();
        JsonToken t = p.currentToken();
        if (t == JsonToken.START_OBJECT) {
            return mapping(p, path, line, col);
        }
        if (t == JsonToken.START_ARRAY) {
            List<YamlNode> items = new ArrayList<>();
            while (p.nextToken() != JsonToken.END_ARRAY) {
                items.add(node(p, path + "[" + items.size() + "]"));
            }
            return new YamlNode.Sequence(items, line, col);
        }
        if (p instanceof YAMLParser y && y.isCurrentAlias()) {
            diagnostics.error(line, col, path, "aliases (*" + p.getText() + ") are not supported: write the value out");
            return new YamlNode.Scalar("", YamlNode.ScalarType.NULL, line, col);
        }
        return new YamlNode.Scalar(t == JsonToken.VALUE_NULL ? "" : p.getText(), type(t), line, col);
    }

    private YamlNode mapping(JsonParser p, String path, int line, int col) throws IOException {
        List<YamlNode.Entry> entries = new ArrayList<>();
        Map<String, YamlNode.Key> seen = new HashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            JsonLocation k = p.currentTokenLocation();
            YamlNode.Key key = new YamlNode.Key(p.currentName(), k.getLineNr(), k.getColumnNr());
            String keyPath = path.isEmpty() ? key.text() : path + "." + key.text();
            p.nextToken();
            YamlNode value = node(p, keyPath);
            YamlNode.Key first = seen.putIfAbsent(key.text(), key);
            if (first != null) {
                diagnostics.error(key, keyPath, "duplicate key (first at line " + first.line() + ")");
            } else {
                entries.add(new YamlNode.Entry(key, value));
            }
        }
        return new YamlNode.Mapping(entries, line, col);
    }

    private static YamlNode.ScalarType type(JsonToken t) {
        return switch (t) {
            case VALUE_NUMBER_INT -> YamlNode.ScalarType.INTEGER;
            case VALUE_NUMBER_FLOAT -> YamlNode.ScalarType.DECIMAL;
            case VALUE_TRUE, VALUE_FALSE -> YamlNode.ScalarType.BOOLEAN;
            case VALUE_NULL -> YamlNode.ScalarType.NULL;
            default -> YamlNode.ScalarType.STRING;
        };
    }

    /**
     * SnakeYAML's message reads "context / context mark / problem / problem mark"; the report keeps the
     * problem line and the position of the problem mark.
     */
    private void syntaxError(JsonProcessingException e) {
        String msg = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
        String problem = "YAML syntax error";
        for (String l : msg.split("\n")) {
            if (!l.isBlank() && !Character.isWhitespace(l.charAt(0))) {
                problem = l.trim();
            }
        }
        int line = e.getLocation() == null ? 1 : Math.max(1, e.getLocation().getLineNr());
        int col = e.getLocation() == null ? 1 : Math.max(1, e.getLocation().getColumnNr());
        Matcher m = MARK.matcher(msg);
        while (m.find()) {
            line = Integer.parseInt(m.group(1));
            col = Integer.parseInt(m.group(2));
        }
        diagnostics.error(line, col, "", "YAML syntax error: " + problem);
    }
}
