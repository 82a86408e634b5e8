package io.siteflow.cli;

import io.siteflow.model.Cidr;
import io.siteflow.model.cli.ExitCodes;
import io.siteflow.rules.importer.SiteImport;
import io.siteflow.rules.importer.SitesDiff;
import io.siteflow.rules.load.Diagnostic;
import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.rules.model.Site;
import io.siteflow.rules.model.SiteModel;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code siteflow sites import|diff}: the site model from the WebLogic domain's own configuration. */
@Command(name = "sites", separator = " ", mixinStandardHelpOptions = true,
        header = "Make a site model from a WebLogic domain, or say what changed in the domain since.",
        description = "Make a site model from a WebLogic domain, or say what changed in the domain since.",
        subcommands = {SitesCommand.Import.class, SitesCommand.Diff.class})
public final class SitesCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "a subcommand is required: import or diff");
    }

    /** {@code siteflow sites import}. */
    @Command(name = "import", separator = " ", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Write the site model (sites.yaml) of a WebLogic domain to standard output:",
                "a host per server listen address (admin, app-server), per database address of",
                "every data source (db) and per --frontend (frontend), each placed in the site",
                "whose network holds it, a server's with its cluster; rules for the domain's",
                "ports (channels, JMS channels, Coherence, database listeners) before the",
                "Oracle FMW defaults; with --isolation, the isolation: block the domain",
                "implies. Each entry says where it came from. Problems go to standard error",
                "as file:line:column: element: message; the model is printed even then. Same",
                "inputs, same bytes.", "",
                "Example:",
                "  siteflow sites import --domain /u01/domains/soaedg/config/config.xml \\",
                "      --site region1=10.1.0.0/16 --site region2=10.2.0.0/16 \\",
                "      --hosts hosts.txt --tnsnames tnsnames.ora > sites.yaml", ""},
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:done, the model is complete",
                "2:a file is missing or broken, or something was left out (model still printed)",
                "64:wrong usage"})
    static final class Import implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--site", required = true, paramLabel = "NAME=CIDR",
                description = "A site and one of its networks; repeat for each site and network, in output order.")
        List<String> sites;

        @Option(names = "--frontend", paramLabel = "ADDR",
                description = "A web-tier address (OHS, load balancer) or name: a host with role frontend.")
        List<String> frontends = new ArrayList<>();

        @Option(names = "--isolation",
                description = {"Also write the isolation: block the domain implies: each cluster talks inside",
                    "itself (CLUSTER, JMS, COHERENCE on its ports), servers reach their data sources'",
                    "databases on the listeners' ports, the admin server and the managed servers reach",
                    "each other (docs/RULES.md, \"Proposing a policy\")."})
        boolean isolation;

        @Mixin
        DomainFiles files;

        @Override
        public Integer call() throws IOException {
            Map<String, List<Cidr>> parsed = sites(spec, sites);
            Optional<Path> missing = files.missing();
            if (missing.isPresent()) {
                return noSuchFile(spec, missing.get());
            }
            SiteImport.Result r = files.read(spec, parsed, frontends, isolation);
            spec.commandLine().getOut().print(r.yaml());
            spec.commandLine().getOut().flush();
            report(spec.commandLine().getErr(), r.diagnostics());
            return r.complete() ? ExitCodes.OK : ExitCodes.INPUT;
        }
    }

    /** {@code siteflow sites diff}. */
    @Command(name = "diff", separator = " ", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Say what changed in the domain since a site model was made: servers and",
                "database hosts added (+), removed (-) or moved to another address (~), and the",
                "ports of the model's own rules added or removed, with their category. The",
                "domain is imported with the model's sites; hosts with other roles than admin,",
                "app-server and db (e.g. frontend) are the operator's and are not compared.", "",
                "Example:", "  siteflow sites diff sites.yaml --domain config.xml --hosts hosts.txt", ""},
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:compared (differences or not)",
                "2:a file is missing or broken, or the import left something out (compared anyway)",
                "64:wrong usage"})
    static final class Diff implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "MODEL", description = "The site model to compare (sites.yaml).")
        Path model;

        @Mixin
        DomainFiles files;

        @Override
        public Integer call() throws IOException {
            Optional<Path> missing = files.missing();
            if (missing.isPresent()) {
                return noSuchFile(spec, missing.get());
            }
            Optional<SiteModel> was = SiteModels.load(model, spec.commandLine().getErr(), false);
            if (was.isEmpty()) {
                return ExitCodes.INPUT;
            }
            Map<String, List<Cidr>> sites = new LinkedHashMap<>();
            for (Site s : was.get().sites()) {
                sites.put(s.name(), s.cidrs());
            }
            SiteImport.Result r = files.read(spec, sites, List.of(), false);
            report(spec.commandLine().getErr(), r.diagnostics());
            if (r.domain().isEmpty()) {
                return ExitCodes.INPUT;
            }
            Optional<SiteModel> now = SiteModelLoader.parse(SiteImport.GENERATED, r.yaml()).model();
            if (now.isEmpty()) {
                return ExitCodes.INPUT; // the loader's errors are among the diagnostics above
            }
            List<String> lines = SitesDiff.between(was.get(), now.get());
            PrintWriter out = spec.commandLine().getOut();
            if (lines.isEmpty()) {
                out.println("no differences between " + model + " and the domain");
            }
            lines.forEach(out::println);
            out.flush();
            return r.complete() ? ExitCodes.OK : ExitCodes.INPUT;
        }
    }

    static Map<String, List<Cidr>> sites(CommandSpec spec, List<String> given) {
        Map<String, List<Cidr>> out = new LinkedHashMap<>();
        for (String s : given) {
            int eq = s.indexOf('=');
            String name = eq < 0 ? "" : s.substring(0, eq).trim();
            if (!name.matches("[A-Za-z0-9._-]+")) {
                throw new ParameterException(spec.commandLine(), "--site " + s + ": expected NAME=CIDR, e.g. region1=10.1.0.0/16");
            }
            try {
                out.computeIfAbsent(name, k -> new ArrayList<>()).add(Cidr.parse(s.substring(eq + 1)));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--site " + s + ": " + e.getMessage());
            }
        }
        return out;
    }

    private static int noSuchFile(CommandSpec spec, Path file) {
        spec.commandLine().getErr().println(file + ": no such file");
        spec.commandLine().getErr().flush();
        return ExitCodes.INPUT;
    }

    private static void report(PrintWriter err, List<Diagnostic> diagnostics) {
        diagnostics.forEach(err::println);
        err.flush();
    }
}
