package io.siteflow.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** YAML and JSON files of deploy/ as Jackson trees. */
final class Yaml {
    private static final ObjectMapper YAML = new YAMLMapper();
    private static final ObjectMapper JSON = new ObjectMapper();

    private Yaml() {
    }

    static JsonNode yaml(String relative) {
        try {
            return YAML.readTree(DeployFiles.read(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(relative + ": " + e.getMessage(), e);
        }
    }

    static JsonNode json(String relative) {
        try {
            return JSON.readTree(DeployFiles.read(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(relative + ": " + e.getMessage(), e);
        }
    }

    /** The text values of an array node (empty when absent). */
    static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    /** The field names of an object node, in file order. */
    static List<String> fieldNames(JsonNode object) {
        List<String> out = new ArrayList<>();
        object.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
