package io.siteflow.cli;

import io.siteflow.model.Cidr;
import io.siteflow.rules.importer.Findings;
import io.siteflow.rules.importer.HostsFile;
import io.siteflow.rules.importer.ImportOptions;
import io.siteflow.rules.importer.SiteImport;
import io.siteflow.rules.importer.TnsNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** Where the domain is read from: config.xml or a WDT model, and the files that resolve its names. */
final class DomainFiles {
    @Option(names = "--domain", paramLabel = "FILE",
            description = "The domain's config.xml (data-source and Coherence descriptors are read from its"
                    + " jdbc/ and coherence/ directories).")
    Path configXml;

    @Option(names = "--wdt", paramLabel = "FILE",
            description = "Instead of --domain: a WebLogic Deploy Tooling model (YAML, as discoverDomain writes it).")
    Path wdt;

    @Option(names = "--hosts", paramLabel = "FILE",
            description = "A hosts file (/etc/hosts format) for listen addresses and database hosts given as names.")
    Path hosts;

    @Option(names = "--tnsnames", paramLabel = "FILE",
            description = "An Oracle tnsnames.ora for JDBC URLs that name an alias (jdbc:oracle:thin:@SOARAC).")
    Path tnsnames;

    /**
     * Reads the domain and makes its model, with the {@code isolation:} block the domain implies when
     * {@code isolation}; problems are in the result.
     */
    SiteImport.Result read(CommandSpec spec, Map<String, List<Cidr>> sites, List<String> frontends, boolean isolation)
            throws IOException {
        if ((configXml == null) == (wdt == null)) {
            throw new ParameterException(spec.commandLine(), "give the domain as --domain config.xml or --wdt model.yaml");
        }
        Findings findings = new Findings();
        ImportOptions options = new ImportOptions(sites, frontends,
                hosts == null ? HostsFile.none() : HostsFile.read(hosts, findings),
                tnsnames == null ? TnsNames.none() : TnsNames.read(tnsnames), isolation);
        return configXml != null ? SiteImport.fromConfigXml(configXml, options, findings)
                : SiteImport.fromWdtModel(wdt, options, findings);
    }

    /** The first named file that does not exist, if any. */
    Optional<Path> missing() {
        List<Path> all = new ArrayList<>();
        for (Path p : new Path[] {configXml, wdt, hosts, tnsnames}) {
            if (p != null) {
                all.add(p);
            }
        }
        return all.stream().filter(p -> !Files.isRegularFile(p)).findFirst();
    }
}
