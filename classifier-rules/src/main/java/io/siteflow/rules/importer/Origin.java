package io.siteflow.rules.importer;

/**
 * Where an element of the domain's configuration was read: file name as given, 1-based line and column.
 * Immutable.
 */
public record Origin(String file, int line, int column) {
    @Override
    public String toString() {
        return file + ":" + line + ":" + column;
    }
}
