package io.siteflow.rules.load;

import java.util.List;

/**
 * A YAML node with the line and column (1-based) where it starts, so that every problem can be reported at
 * its place. Built by {@link YamlTreeReader}; immutable.
 */
public sealed interface YamlNode permits YamlNode.Mapping, YamlNode.Sequence, YamlNode.Scalar {

    int line();

    int column();

    /** What the node is, for messages: {@code a mapping}, {@code a list}, {@code a number}, ... */
    String kind();

    /** A key of a mapping, with its position. */
    record Key(String text, int line, int column) {
    }

    /** One key/value pair. */
    record Entry(Key key, YamlNode value) {
    }

    /** A mapping, entries in file order (duplicate keys are rejected while reading). */
    record Mapping(List<Entry> entries, int line, int column) implements YamlNode {
        public Mapping {
            entries = List.copyOf(entries);
        }

        @Override
        public String kind() {
            return "a mapping";
        }
    }

    /** A sequence. */
    record Sequence(List<YamlNode> items, int line, int column) implements YamlNode {
        public Sequence {
            items = List.copyOf(items);
        }

        @Override
        public String kind() {
            return "a list";
        }
    }

    /**
     * A scalar as written (without quotes), with the type YAML gave it.
     *
     * @param text  the text, {@code ""} for null
     * @param type  what the YAML resolver made of it
     */
    record Scalar(String text, ScalarType type, int line, int column) implements YamlNode {
        @Override
        public String kind() {
            return switch (type) {
                case STRING -> "a string";
                case INTEGER, DECIMAL -> "a number";
                case BOOLEAN -> "a boolean";
                case NULL -> "nothing";
            };
        }
    }

    /** Types of scalars. */
    enum ScalarType { STRING, INTEGER, DECIMAL, BOOLEAN, NULL }
}
