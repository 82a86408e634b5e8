package io.siteflow.rules.load;

import java.util.List;
import java.util.stream.Collectors;

/** A site model with errors; the message lists every error, one per line. */
public final class SiteModelException extends Exception {
    private static final long serialVersionUID = 1L;
    private final transient List<Diagnostic> diagnostics;

    public SiteModelException(List<Diagnostic> diagnostics) {
        super(diagnostics.stream().filter(Diagnostic::isError).map(Diagnostic::toString)
                .collect(Collectors.joining("\n")));
        this.diagnostics = List.copyOf(diagnostics);
    }

    /** All diagnostics, errors and warnings, in report order. */
    public List<Diagnostic> diagnostics() {
        return diagnostics;
    }
}
