package io.siteflow.rules.importer;

import io.siteflow.model.Cidr;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The soaedg fixture beside the tests: its files and the options an operator gives with it. */
final class SoaDomain {
    static final Path DIR = dir();
    static final Path CONFIG_XML = DIR.resolve("config/config.xml");
    static final Path WDT_MODEL = DIR.resolve("model.yaml");
    static final Path HOSTS = DIR.resolve("hosts.txt");
    static final Path TNSNAMES = DIR.resolve("tnsnames.ora");
    static final Path EXPECTED = DIR.resolve("soaedg.expected.yaml");

    private SoaDomain() {
    }

    /** region1=10.1.0.0/16, region2=10.2.0.0/16, the fixture's hosts file and tnsnames.ora. */
    static ImportOptions options(Findings findings) throws IOException {
        return new ImportOptions(twoRegions(), List.of(), HostsFile.read(HOSTS, findings), TnsNames.read(TNSNAMES));
    }

    static Map<String, List<Cidr>> twoRegions() {
        Map<String, List<Cidr>> sites = new LinkedHashMap<>();
        sites.put("region1", List.of(Cidr.parse("10.1.0.0/16")));
        sites.put("region2", List.of(Cidr.parse("10.2.0.0/16")));
        return sites;
    }

    private static Path dir() {
        try {
            return Path.of(SoaDomain.class.getResource("soaedg/config/config.xml").toURI()).getParent().getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
