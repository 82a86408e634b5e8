package io.siteflow.rules.importer;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.rules.load.Diagnostic;
import io.siteflow.rules.load.SiteModelLoader;
import io.siteflow.rules.model.SiteModel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

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

    private static void assertGolden(SiteImport.Result r) throws Exception {
        String expected = Files.readString(SoaDomain.EXPECTED, StandardCharsets.UTF_8);
        if (!r.yaml().equals(expected)) {
            Files.writeString(Path.of("target", "soaedg.actual.yaml"), r.yaml(), StandardCharsets.UTF_8);
        }
        assertThat(r.yaml()).isEqualTo(expected);
    }
}
