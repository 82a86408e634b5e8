package io.siteflow.rules.load;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Collects the problems of one file while it is read. Not thread-safe; one per load. */
final class Diagnostics {
    private final String file;
    private final List<Diagnostic> items = new ArrayList<>();

    Diagnostics(String file) {
        this.file = file;
    }

    String file() {
        return file;
    }

    void error(YamlNode at, String path, String message) {
        error(at.line(), at.column(), path, message);
    }

    void error(YamlNode.Key at, String path, String message) {
        error(at.line(), at.column(), path, message);
    }

    void error(int line, int column, String path, String message) {
        items.add(new Diagnostic(Diagnostic.Severity.ERROR, file, line, column, path, message));
    }

    void warning(int line, int column, String path, String message) {
        items.add(new Diagnostic(Diagnostic.Severity.WARNING, file, line, column, path, message));
    }

    int errorCount() {
        return (int) items.stream().filter(Diagnostic::isError).count();
    }

    boolean hasErrors() {
        return items.stream().anyMatch(Diagnostic::isError);
    }

    void addAll(List<Diagnostic> other) {
        items.addAll(other);
    }

    /** All problems in file order (line, then column). */
    List<Diagnostic> sorted() {
        List<Diagnostic> out = new ArrayList<>(items);
        out.sort(Comparator.comparingInt(Diagnostic::line).thenComparingInt(Diagnostic::column));
        return List.copyOf(out);
    }
}
