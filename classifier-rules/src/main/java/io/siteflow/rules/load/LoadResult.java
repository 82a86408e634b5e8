package io.siteflow.rules.load;

import io.siteflow.rules.model.SiteModel;
import java.util.List;
import java.util.Optional;

/**
 * What loading a site model gave: the model when there was no error, and every diagnostic (errors and
 * warnings) in report order: the user's file by position, then the built-in rule set's. Immutable.
 *
 * @param model       the model, empty when there is at least one error
 * @param diagnostics all problems found
 */
public record LoadResult(Optional<SiteModel> model, List<Diagnostic> diagnostics) {
    public LoadResult {
        diagnostics = List.copyOf(diagnostics);
    }

    public List<Diagnostic> errors() {
        return diagnostics.stream().filter(Diagnostic::isError).toList();
    }

    public List<Diagnostic> warnings() {
        return diagnostics.stream().filter(d -> !d.isError()).toList();
    }

    /**
     * The model.
     *
     * @throws SiteModelException listing every error when there is no model
     */
    public SiteModel orThrow() throws SiteModelException {
        if (model.isEmpty()) {
            throw new SiteModelException(diagnostics);
        }
        return model.get();
    }
}
