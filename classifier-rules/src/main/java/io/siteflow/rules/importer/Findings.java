package io.siteflow.rules.importer;

import io.siteflow.rules.load.Diagnostic;
import java.util.ArrayList;
import java.util.List;

/**
 * The problems found while importing, in the order found, as the loader's {@link Diagnostic}s: the key path is
 * the element ({@code server soa_server3}). Errors mean the model is incomplete. Not thread-safe.
 */
public final class Findings {
    private final List<Diagnostic> items = new ArrayList<>();

    void error(Origin at, String element, String message) {
        items.add(new Diagnostic(Diagnostic.Severity.ERROR, at.file(), at.line(), at.column(), element, message));
    }

    void warning(Origin at, String element, String message) {
        items.add(new Diagnostic(Diagnostic.Severity.WARNING, at.file(), at.line(), at.column(), element, message));
    }

    void add(Diagnostic d) {
        items.add(d);
    }

    public List<Diagnostic> all() {
        return List.copyOf(items);
    }

    public boolean hasErrors() {
        return items.stream().anyMatch(Diagnostic::isError);
    }
}
