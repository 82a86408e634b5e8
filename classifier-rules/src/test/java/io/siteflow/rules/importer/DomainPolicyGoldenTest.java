package io.siteflow.rules.importer;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.rules.load.LoadResult;
import io.siteflow.rules.load.SiteModelLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sites import --isolation} on the soaedg fixture: the golden model followed by the golden
 * {@code soaedg.isolation.expected.yaml} block, byte for byte from config.xml and from the WDT model, which the
 * ordinary loader accepts without a diagnostic.
 */
class DomainPolicyGoldenTest {
    static final Path EXPECTED_BLOCK = SoaDomain.DIR.resolve("soaedg.isolation.expected.yaml");

    @Test
    void configXmlGivesTheGoldenModelAndBlock() throws Exception {
        Findings findings = new Findings();
        SiteImport.Result r = SiteImport.fromConfigXml(SoaDomain.CONFIG_XML, withIsolation(findings), findings);

        assertGolden(r);
        assertThat(r.diagnostics()).hasSize(1); // the LDAP data source, as without --isolation
    }

    @Test
    void wdtModelGivesTheSameBytes() throws Exception {
        Findings findings = new Findings();
        SiteImport.Result r = SiteImport.fromWdtModel(SoaDomain.WDT_MODEL, withIsolation(findings), findings);

        assertGolden(r);
    }

    @Test
    void theOrderOfElementsDoesNotChangeABit(@TempDir Path dir) throws Exception {
        Path copy = SiteImportGoldenTest.reversedServers(dir);
        Findings findings = new Findings();

        SiteImport.Result r = SiteImport.fromConfigXml(copy.resolve("config.xml"), withIsolation(findings), findings);

        assertGolden(r);
    }

    @Test
    void theModelWithItsBlockLoadsWithoutADiagnostic() throws Exception {
        String model = Files.readString(SoaDomain.EXPECTED) + Files.readString(EXPECTED_BLOCK);

        LoadResult r = SiteModelLoader.parse("sites.yaml", model);

        assertThat(r.diagnostics()).isEmpty();
        assertThat(r.model().orElseThrow().isolation().orElseThrow().allow()).isNotEmpty();
    }

    private static ImportOptions withIsolation(Findings findings) throws Exception {
        ImportOptions o = SoaDomain.options(findings);
        return new ImportOptions(o.sites(), o.frontends(), o.hosts(), o.tnsNames(), true);
    }

    private static void assertGolden(SiteImport.Result r) throws Exception {
        String expected = Files.readString(SoaDomain.EXPECTED, StandardCharsets.UTF_8)
                + Files.readString(EXPECTED_BLOCK, StandardCharsets.UTF_8);
        if (!r.yaml().equals(expected)) {
            Files.writeString(Path.of("target", "soaedg.isolation.actual.yaml"), r.yaml(), StandardCharsets.UTF_8);
        }
        assertThat(r.yaml()).isEqualTo(expected);
    }
}
