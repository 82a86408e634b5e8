package io.siteflow.rules.importer;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.rules.load.Diagnostic;
import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.rules.model.SiteModel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The soaedg fixture (2 clusters, 6 managed servers in two sites, an admin server, JMS servers on a custom
 * channel, a Coherence descriptor, 5 data sources covering every URL form, a RAC alias in tnsnames.ora): read
 * from config.xml and from the WDT model, it gives the golden {@code soaedg.expected.yaml} byte for byte, which
 * the ordinary loader accepts.
 */
class SiteImportGoldenTest {
    static final String LDAP = "data source opss-data-source: LDAP URL jdbc:oracle:thin:@ldap://oid.example.com:389/"
            + "soapdb,cn=OracleContext,dc=example,dc=com is not supported; its database hosts are left out";

    @Test
    void configXmlGivesTheGoldenModel() throws Exception {
        Findings findings = new Findings();
        SiteImport.Result r = SiteImport.fromConfigXml(SoaDomain.CONFIG_XML, SoaDomain.options(findings), findings);

        assertGolden(r);
        assertThat(r.diagnostics()).map(Diagnostic::toString).containsExactly(
                SoaDomain.DIR.resolve("config/jdbc/opss-data-source-jdbc.xml") + ":6:5: " + LDAP);
        assertThat(r.complete()).isFalse();
    }

    @Test
    void wdtModelGivesTheSameBytes() throws Exception {
        Findings findings = new Findings();
        SiteImport.Result r = SiteImport.fromWdtModel(SoaDomain.WDT_MODEL, SoaDomain.options(findings), findings);

        assertGolden(r);
        assertThat(r.diagnostics()).map(Diagnostic::toString).containsExactly(
                SoaDomain.WDT_MODEL + ":125:26: " + LDAP);
    }

    @Test
    void bothReadersGiveEqualDomainsApartFromOrigins() throws Exception {
        Findings findings = new Findings();
        Domain xml = new ConfigXmlReader(findings).read(SoaDomain.CONFIG_XML).orElseThrow();
        Domain wdt = new WdtModelReader(findings).read(SoaDomain.WDT_MODEL).orElseThrow();

        assertThat(wdt).usingRecursiveComparison().ignoringFieldsOfTypes(Origin.class).isEqualTo(xml);
        assertThat(xml.servers()).hasSize(7);
        assertThat(xml.dataSources()).hasSize(5);
        assertThat(findings.all()).isEmpty();
    }

    @Test
    void theGoldenModelPassesRulesCheck() throws Exception {
        SiteModel m = SiteModelLoader.load(SoaDomain.EXPECTED).orThrow();

        assertThat(SiteModelLoader.load(SoaDomain.EXPECTED).diagnostics()).isEmpty();
        assertThat(m.hosts()).hasSize(13);
        assertThat(m.sites()).hasSize(2);
    }

    @Test
    void theOrderOfElementsDoesNotChangeABit(@TempDir Path dir) throws Exception {
        Path copy = reversedServers(dir);
        Findings findings = new Findings();

        SiteImport.Result r = SiteImport.fromConfigXml(copy.resolve("config.xml"), SoaDomain.options(findings), findings);

        assertThat(new ConfigXmlReader(new Findings()).read(copy.resolve("config.xml")).orElseThrow().servers())
                .map(Domain.Server::name).containsExactly("osb_server2", "osb_server1", "soa_server4", "soa_server3",
                        "soa_server2", "soa_server1", "AdminServer");
        assertGolden(r);
    }

    /** A copy of the fixture's config directory in {@code dir} with its servers in reverse order, before the clusters. */
    static Path reversedServers(Path dir) throws Exception {
        String xml = Files.readString(SoaDomain.CONFIG_XML);
        List<String> servers = new ArrayList<>();
        Matcher m = Pattern.compile("(?s)  <server>.*?</server>\n").matcher(xml);
        while (m.find()) {
            servers.add(m.group());
        }
        Collections.reverse(servers);
        String rest = xml.replaceAll("(?s)  <server>.*?</server>\n", "");
        int clusters = rest.indexOf("  <cluster>\n    <name>soa_cluster</name>");
        String reversed = rest.substring(0, clusters) + String.join("", servers) + rest.substring(clusters);
        Path copy = dir.resolve("config");
        Files.createDirectories(copy);
        Files.writeString(copy.resolve("config.xml"), reversed);
        for (String sub : List.of("jdbc", "coherence")) {
            Files.createDirectories(copy.resolve(sub));
            try (var files = Files.list(SoaDomain.DIR.resolve("config").resolve(sub))) {
                for (Path f : files.toList()) {
                    Files.copy(f, copy.resolve(sub).resolve(f.getFileName().toString()));
                }
            }
        }
        assertThat(servers).hasSize(7);
        return copy;
    }

    @Test
    void aWdtServerWithoutListenAddressIsReportedAtItsKey(@TempDir Path dir) throws Exception {
        Path model = dir.resolve("model.yaml");
        Files.writeString(model, "topology:\n    Name: d\n    Server:\n        AdminServer:\n            ListenPort: 7001\n");
        Findings findings = new Findings();

        SiteImport.Result r = SiteImport.fromWdtModel(model, SoaDomain.options(findings), findings);

        assertThat(r.diagnostics()).map(Diagnostic::toString).containsExactly(model + ":4:9: admin server AdminServer:"
                + " no listen-address: it listens on every address, so siteflow cannot place it; host left out"
                + " (give it a listen-address, or list it by hand)");
    }

    private static void assertGolden(SiteImport.Result r) throws Exception {
        String expected = Files.readString(SoaDomain.EXPECTED, StandardCharsets.UTF_8);
        if (!r.yaml().equals(expected)) {
            Files.writeString(Path.of("target", "soaedg.actual.yaml"), r.yaml(), StandardCharsets.UTF_8);
        }
        assertThat(r.yaml()).isEqualTo(expected);
    }
}
