package io.siteflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code siteflow sites import|diff} on classifier-rules' soaedg fixture: the golden model on standard output
 * and the problems on standard error with exit 2, the same bytes from the WDT model, usage errors, and what
 * {@code diff} says when servers and ports change.
 */
class SitesCommandTest {
    static final Path SOAEDG = Path.of(System.getProperty("siteflow.root", ".."))
            .resolve("classifier-rules/src/test/resources/io/siteflow/rules/importer/soaedg");
    static final String LDAP = "config/jdbc/opss-data-source-jdbc.xml:6:5: data source opss-data-source: LDAP URL"
            + " jdbc:oracle:thin:@ldap://oid.example.com:389/soapdb,cn=OracleContext,dc=example,dc=com is not"
            + " supported; its database hosts are left out";

    @TempDir
    Path dir;

    static CommandRun importSoaedg(Path domainDir, String... source) {
        String[] common = {"sites", "import", "--site", "region1=10.1.0.0/16", "--site", "region2=10.2.0.0/16",
            "--hosts", domainDir.resolve("hosts.txt").toString(), "--tnsnames", domainDir.resolve("tnsnames.ora").toString()};
        return CommandRun.of(Stream.concat(Stream.of(common), Stream.of(source)).toArray(String[]::new));
    }

    @Test
    void importPrintsTheGoldenModelAndExitsTwoForTheLdapDataSource() throws IOException {
        CommandRun run = importSoaedg(SOAEDG, "--domain", SOAEDG.resolve("config/config.xml").toString());

        assertThat(run.out()).isEqualTo(Files.readString(SOAEDG.resolve("soaedg.expected.yaml")));
        assertThat(run.err()).isEqualTo(SOAEDG + "/" + LDAP + "\n");
        assertThat(run.exitCode()).isEqualTo(2);
    }

    @Test
    void importFromTheWdtModelPrintsTheSameBytes() throws IOException {
        CommandRun run = importSoaedg(SOAEDG, "--wdt", SOAEDG.resolve("model.yaml").toString());

        assertThat(run.out()).isEqualTo(Files.readString(SOAEDG.resolve("soaedg.expected.yaml")));
        assertThat(run.exitCode()).isEqualTo(2);
    }

    @Test
    void importWithIsolationPrintsTheGoldenModelThenTheBlockTheDomainImplies() throws IOException {
        CommandRun run = importSoaedg(SOAEDG, "--domain", SOAEDG.resolve("config/config.xml").toString(),
                "--isolation");

        assertThat(run.out()).isEqualTo(Files.readString(SOAEDG.resolve("soaedg.expected.yaml"))
                + Files.readString(SOAEDG.resolve("soaedg.isolation.expected.yaml")));
        assertThat(run.err()).isEqualTo(SOAEDG + "/" + LDAP + "\n");
        assertThat(run.exitCode()).isEqualTo(2);
    }

    @Test
    void aCompleteImportExitsZeroAndPassesRulesCheck() throws IOException {
        Path domain = copyOfSoaedg();
        Path config = domain.resolve("config/config.xml");
        Files.writeString(config, Files.readString(config).replaceAll(
                "(?s)  <jdbc-system-resource>\\s*<name>opss-data-source</name>.*?</jdbc-system-resource>\n", ""));

        CommandRun run = importSoaedg(domain, "--domain", config.toString(), "--frontend", "10.2.0.100");
        Path sites = dir.resolve("sites.yaml");
        Files.writeString(sites, run.out());
        CommandRun check = CommandRun.of("rules", "check", sites.toString());

        assertThat(run.err()).isEmpty();
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("  # --frontend 10.2.0.100\n  - { address: 10.2.0.100, name: 10.2.0.100, role: frontend }\n");
        assertThat(check.exitCode()).as(check.err()).isZero();
        assertThat(check.out()).startsWith(sites + ": valid: 2 sites, 14 hosts, 27 rules (defaults included), sha256:");
    }

    @Test
    void usageErrorsExitSixtyFour() {
        CommandRun badSite = CommandRun.of("sites", "import", "--site", "region1", "--domain", "config.xml");
        CommandRun badCidr = CommandRun.of("sites", "import", "--site", "region1=10.1.0.0/33", "--domain", "config.xml");
        CommandRun noDomain = CommandRun.of("sites", "import", "--site", "region1=10.1.0.0/16");
        CommandRun both = CommandRun.of("sites", "import", "--site", "region1=10.1.0.0/16", "--domain",
                SOAEDG.resolve("config/config.xml").toString(), "--wdt", SOAEDG.resolve("model.yaml").toString());

        assertThat(badSite.exitCode()).isEqualTo(64);
        assertThat(badSite.err()).startsWith("siteflow sites import: --site region1: expected NAME=CIDR, e.g. region1=10.1.0.0/16\n");
        assertThat(badCidr.err()).startsWith("siteflow sites import: --site region1=10.1.0.0/33: 10.1.0.0/33: prefix length must be 0-32\n");
        assertThat(noDomain.exitCode()).isEqualTo(64);
        assertThat(noDomain.err()).startsWith("siteflow sites import: give the domain as --domain config.xml or --wdt model.yaml\n");
        assertThat(both.exitCode()).isEqualTo(64);
    }

    @Test
    void aMissingFileExitsTwo() {
        CommandRun run = CommandRun.of("sites", "import", "--site", "region1=10.1.0.0/16", "--domain",
                dir.resolve("nope.xml").toString());

        assertThat(run.err()).isEqualTo(dir.resolve("nope.xml") + ": no such file\n");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
    }

    @Test
    void diffOfTheModelAgainstItsOwnDomainFindsNothing() {
        CommandRun run = CommandRun.of("sites", "diff", SOAEDG.resolve("soaedg.expected.yaml").toString(), "--domain",
                SOAEDG.resolve("config/config.xml").toString(), "--hosts", SOAEDG.resolve("hosts.txt").toString(),
                "--tnsnames", SOAEDG.resolve("tnsnames.ora").toString());

        assertThat(run.out()).isEqualTo("no differences between " + SOAEDG.resolve("soaedg.expected.yaml")
                + " and the domain\n");
        assertThat(run.exitCode()).isEqualTo(2); // the LDAP data source is still left out
    }

    @Test
    void diffShowsServersAddedRemovedAndMovedAndPortsChanged() throws IOException {
        Path domain = copyOfSoaedg();
        Path config = domain.resolve("config/config.xml");
        String xml = Files.readString(config)
                .replace("<listen-address>10.2.0.21</listen-address>", "<listen-address>10.2.0.22</listen-address>")
                .replace("<name>osb_server2</name>", "<name>osb_server3</name>")
                .replace("<listen-port>9002</listen-port>", "<listen-port>9003</listen-port>");
        Files.writeString(config, xml);

        CommandRun run = CommandRun.of("sites", "diff", SOAEDG.resolve("soaedg.expected.yaml").toString(), "--domain",
                config.toString(), "--hosts", domain.resolve("hosts.txt").toString(), "--tnsnames",
                domain.resolve("tnsnames.ora").toString());

        assertThat(run.out()).isEqualTo("""
                - host osb_server2 10.2.0.30 (app-server, region2)
                + host osb_server3 10.2.0.30 (app-server, region2)
                ~ host soa_server4 moved: 10.2.0.21 (region2) -> 10.2.0.22 (region2)
                - port 9002 ADMIN
                + port 9003 ADMIN
                """);
        assertThat(run.err()).isEqualTo(domain + "/" + LDAP + "\n");
    }

    private Path copyOfSoaedg() throws IOException {
        Path copy = dir.resolve("soaedg");
        try (Stream<Path> files = Files.walk(SOAEDG)) {
            for (Path p : files.toList()) {
                Path target = copy.resolve(SOAEDG.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        return copy;
    }
}
