package io.siteflow.cli.input;

import io.siteflow.rules.load.Diagnostic;
import io.siteflow.rules.load.LoadResult;
import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.rules.model.SiteModel;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/** Loads a {@code sites.yaml} for a command, printing every diagnostic to standard error. */
public final class SiteModels {
    private SiteModels() {
    }

    /**
     * @return the model, or empty when the file is missing or has errors (each printed as
     *         {@code file:line:column: key: message})
     */
    public static Optional<SiteModel> load(Path file, PrintWriter err, boolean printWarnings) {
        if (!Files.exists(file)) {
            err.println(file + ": no such file");
            return Optional.empty();
        }
        LoadResult result;
        try {
            result = SiteModelLoader.load(file);
        } catch (NoSuchFileException e) {
            err.println(file + ": no such file");
            return Optional.empty();
        } catch (IOException e) {
            err.println(file + ": cannot read: " + e.getMessage());
            return Optional.empty();
        }
        for (Diagnostic d : result.diagnostics()) {
            if (d.isError() || printWarnings) {
                err.println(d);
            }
        }
        err.flush();
        return result.errors().isEmpty() ? result.model() : Optional.empty();
    }
}
