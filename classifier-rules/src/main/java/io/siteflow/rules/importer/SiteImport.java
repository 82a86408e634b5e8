package io.siteflow.rules.importer;

import io.siteflow.rules.load.Diagnostic;
import io.siteflow.rules.load.LoadResult;
import io.siteflow.rules.load.SiteModelLoader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * {@code siteflow sites import} as a function: domain files in, {@code sites.yaml} text and diagnostics out.
 * The text is checked by the ordinary {@link SiteModelLoader}; its findings (none, for a model made here) are
 * reported as well. Stateless.
 */
public final class SiteImport {
    /** What {@code rules check} would call the generated text. */
    public static final String GENERATED = "(imported sites.yaml)";

    /**
     * The outcome.
     *
     * @param domain      the domain as read, empty when its main file was not well-formed
     * @param yaml        the site model, {@code ""} when there is no domain
     * @param diagnostics every problem, in the order found
     */
    public record Result(Optional<Domain> domain, String yaml, List<Diagnostic> diagnostics) {
        public Result {
            diagnostics = List.copyOf(diagnostics);
        }

        /** True when nothing was left out: no error. */
        public boolean complete() {
            return domain.isPresent() && diagnostics.stream().noneMatch(Diagnostic::isError);
        }
    }

    private SiteImport() {
    }

    /** @throws IOException when a file cannot be read */
    public static Result fromConfigXml(Path configXml, ImportOptions options, Findings findings) throws IOException {
        return finish(new ConfigXmlReader(findings).read(configXml), options, findings);
    }

    /** @throws IOException when the file cannot be read */
    public static Result fromWdtModel(Path model, ImportOptions options, Findings findings) throws IOException {
        return finish(new WdtModelReader(findings).read(model), options, findings);
    }

    /** Builds, writes and checks the model of an already read domain. */
    public static Result finish(Optional<Domain> domain, ImportOptions options, Findings findings) {
        if (domain.isEmpty()) {
            return new Result(domain, "", findings.all());
        }
        String yaml = SitesYamlWriter.write(new ModelBuilder(options, findings).build(domain.get()));
        LoadResult check = SiteModelLoader.parse(GENERATED, yaml);
        check.diagnostics().forEach(findings::add);
        return new Result(domain, yaml, findings.all());
    }
}
