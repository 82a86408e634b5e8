package io.siteflow.rules.importer;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.rules.load.Diagnostic;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One test per problem the importer reports, with its exact message naming file, line, column and element.
 * Every problem leaves the model incomplete but still written, except ignored unknown elements.
 */
class ImportDiagnosticsTest {
    @TempDir
    Path dir;

    @Test
    void malformedXmlGivesItsLineAndColumn() throws IOException {
        Path config = write("config.xml", "<domain>\n  <name>d</name>\n  <server><name>a</name>\n</domain>\n");

        SiteImport.Result r = importXml(config, HostsFile.none(), TnsNames.none());

        assertThat(messages(r)).containsExactly(config + ":4:3: malformed XML: The element type \"server\" must be"
                + " terminated by the matching end-tag \"</server>\".");
        assertThat(r.yaml()).isEmpty();
        assertThat(r.complete()).isFalse();
    }

    @Test
    void anAddressNoSiteHoldsIsLeftOut() throws IOException {
        Path config = domain(server("s9", "10.9.0.5"));

        SiteImport.Result r = importXml(config, HostsFile.none(), TnsNames.none());

        assertThat(messages(r)).containsExactly(
                config + ":5:5: server s9: listen-address 10.9.0.5 is in no --site network; host left out");
        assertThat(r.yaml()).contains("hosts: []\n").doesNotContain("10.9.0.5");
        assertThat(r.complete()).isFalse();
    }

    @Test
    void aNameTheHostsFileDoesNotResolveIsLeftOut() throws IOException {
        Path config = domain(server("s9", "soahost9"));
        Path hosts = write("hosts.txt", "10.1.0.20 soahost1\n");
        Findings findings = new Findings();

        SiteImport.Result r = SiteImport.fromConfigXml(config, options(HostsFile.read(hosts, findings),
                TnsNames.none()), findings);

        assertThat(messages(r)).containsExactly(config + ":5:5: server s9: listen-address soahost9 is not in the"
                + " hosts file " + hosts + "; host left out");
    }

    @Test
    void aNameWithoutAHostsFileIsLeftOut() throws IOException {
        Path config = domain(server("s9", "soahost9"));

        assertThat(messages(importXml(config, HostsFile.none(), TnsNames.none()))).containsExactly(config
                + ":5:5: server s9: listen-address soahost9 is a host name and no --hosts file was given; host left out");
    }

    @Test
    void aServerWithoutListenAddressListensEverywhere() throws IOException {
        Path config = domain("  <server>\n    <name>s1</name>\n    <listen-port>7003</listen-port>\n  </server>\n");

        SiteImport.Result r = importXml(config, HostsFile.none(), TnsNames.none());

        assertThat(messages(r)).containsExactly(config + ":5:5: server s1: no listen-address: it listens on every"
                + " address, so siteflow cannot place it; host left out (give it a listen-address, or list it by hand)");
        assertThat(r.yaml()).doesNotContain("7003"); // no host has its role yet: no rule names it
    }

    @Test
    void aDataSourceWithoutUrlIsReported() throws IOException {
        Path config = domain(dataSource("EmptyDS", ""));

        assertThat(messages(importXml(config, HostsFile.none(), TnsNames.none()))).containsExactly(
                dir.resolve("jdbc/EmptyDS-jdbc.xml") + ":4:5: data source EmptyDS: no URL; its database hosts are left out");
    }

    @Test
    void anAliasMissingFromTnsnamesIsReported() throws IOException {
        Path config = domain(dataSource("RacDS", "jdbc:oracle:thin:@NOPE"));
        Path tns = write("tnsnames.ora", "SOARAC = (DESCRIPTION=(ADDRESS=(HOST=10.1.0.13)(PORT=1523)))\n");

        assertThat(messages(importXml(config, HostsFile.none(), TnsNames.read(tns)))).containsExactly(
                dir.resolve("jdbc/RacDS-jdbc.xml") + ":4:5: data source RacDS: alias NOPE is not in " + tns
                        + "; its database hosts are left out");
    }

    @Test
    void anAliasWithoutTnsnamesIsReported() throws IOException {
        Path config = domain(dataSource("RacDS", "jdbc:oracle:thin:@SOARAC"));

        assertThat(messages(importXml(config, HostsFile.none(), TnsNames.none()))).containsExactly(
                dir.resolve("jdbc/RacDS-jdbc.xml") + ":4:5: data source RacDS: alias SOARAC needs a tnsnames.ora"
                        + " (--tnsnames); its database hosts are left out");
    }

    @Test
    void aMissingDescriptorIsReportedAtItsName() throws IOException {
        Path config = domain("  <jdbc-system-resource>\n    <name>GoneDS</name>\n"
                + "    <descriptor-file-name>jdbc/GoneDS-jdbc.xml</descriptor-file-name>\n  </jdbc-system-resource>\n");

        assertThat(messages(importXml(config, HostsFile.none(), TnsNames.none()))).containsExactly(
                config + ":6:5: data source GoneDS: descriptor " + dir.resolve("jdbc/GoneDS-jdbc.xml") + " not found");
    }

    @Test
    void aPortOutOfRangeIsReported() throws IOException {
        Path config = domain("  <server>\n    <name>s1</name>\n    <listen-address>10.1.0.20</listen-address>\n"
                + "    <listen-port>70001</listen-port>\n  </server>\n");

        assertThat(messages(importXml(config, HostsFile.none(), TnsNames.none()))).containsExactly(
                config + ":7:5: server s1, listen-port: \"70001\" is not a port (1-65535)");
    }

    @Test
    void unknownElementsAreIgnored() throws IOException {
        Path plain = domain(server("s1", "10.1.0.20"));
        String known = importXml(plain, HostsFile.none(), TnsNames.none()).yaml();
        Path extra = write("config.xml", Files.readString(plain).replace("<name>s1</name>",
                "<name>s1</name>\n    <web-server><max-post-size>-1</max-post-size></web-server>")
                .replace("</domain>", "  <app-deployment><name>soa-infra</name></app-deployment>\n</domain>"));

        SiteImport.Result r = importXml(extra, HostsFile.none(), TnsNames.none());

        assertThat(r.diagnostics()).isEmpty();
        assertThat(r.complete()).isTrue();
        assertThat(r.yaml()).isEqualTo(known).contains("  - { address: 10.1.0.20, name: s1, role: app-server }\n");
    }

    @Test
    void theDomainWideAdministrationPortIsAnAdminRuleForEveryServer() throws IOException {
        Path config = write("config.xml", "<domain>\n  <name>d</name>\n  <admin-server-name>adm</admin-server-name>\n"
                + "  <administration-port-enabled>true</administration-port-enabled>\n" + server("adm", "10.1.0.5")
                + server("s1", "10.1.0.20") + "</domain>\n");
        Path model = write("model.yaml", "topology:\n  Name: d\n  AdminServerName: adm\n  AdministrationPortEnabled: true\n"
                + "  AdministrationPort: 9102\n  Server:\n    adm: { ListenAddress: 10.1.0.5 }\n"
                + "    s1: { ListenAddress: 10.1.0.20 }\n");
        Findings findings = new Findings();

        String xml = importXml(config, HostsFile.none(), TnsNames.none()).yaml();
        String wdt = SiteImport.fromWdtModel(model, options(HostsFile.none(), TnsNames.none()), findings).yaml();

        assertThat(xml).contains("  # admin server adm administration-port (domain)\n  # server s1 administration-port (domain)\n"
                + "  - { name: domain-admin-9002, category: ADMIN, proto: tcp, ports: [9002], peerRoles: [admin, app-server] }\n");
        assertThat(wdt).contains("  - { name: domain-admin-9102, category: ADMIN, proto: tcp, ports: [9102], peerRoles:"
                + " [admin, app-server] }\n");
        assertThat(findings.all()).isEmpty();
    }

    @Test
    void aWdtTokenInPlaceOfAnAddressIsReported() throws IOException {
        Path model = write("model.yaml", "topology:\n  Name: d\n  Server:\n"
                + "    s1: { ListenAddress: '@@PROP:Server.s1.ListenAddress@@' }\n");
        Findings findings = new Findings();

        SiteImport.Result r = SiteImport.fromWdtModel(model, options(HostsFile.none(), TnsNames.none()), findings);

        assertThat(messages(r)).containsExactly(model + ":4:5: server s1: listen-address"
                + " @@PROP:Server.s1.ListenAddress@@ is a WDT token, not an address; host left out"
                + " (give the model with its variables resolved)");
    }

    @Test
    void aWdtModelThatIsNotYamlGivesItsLineAndColumn() throws IOException {
        Path model = write("model.yaml", "topology:\n    Name: d\n    Server: [a,\n");
        Findings findings = new Findings();

        SiteImport.Result r = SiteImport.fromWdtModel(model, options(HostsFile.none(), TnsNames.none()), findings);

        assertThat(messages(r)).hasSize(1).first().asString()
                .isEqualTo(model + ":4:1: YAML syntax error: expected the node content, but found '<stream end>'");
        assertThat(r.yaml()).isEmpty();
    }

    private SiteImport.Result importXml(Path config, HostsFile hosts, TnsNames tns) throws IOException {
        Findings findings = new Findings();
        return SiteImport.fromConfigXml(config, options(hosts, tns), findings);
    }

    private static ImportOptions options(HostsFile hosts, TnsNames tns) {
        return new ImportOptions(SoaDomain.twoRegions(), List.of(), hosts, tns);
    }

    private static List<String> messages(SiteImport.Result r) {
        return r.diagnostics().stream().map(Diagnostic::toString).toList();
    }

    /** A config.xml with the given elements after name and admin-server-name (so the first is on line 4). */
    private Path domain(String elements) throws IOException {
        return write("config.xml", "<?xml version=\"1.0\"?>\n<domain xmlns=\"http://xmlns.oracle.com/weblogic/domain\">"
                + "\n  <name>d</name><admin-server-name>AdminServer</admin-server-name>\n" + elements + "</domain>\n");
    }

    private static String server(String name, String address) {
        return "  <server>\n    <name>" + name + "</name>\n    <listen-address>" + address
                + "</listen-address>\n  </server>\n";
    }

    private String dataSource(String name, String url) throws IOException {
        Files.createDirectories(dir.resolve("jdbc"));
        write("jdbc/" + name + "-jdbc.xml", "<jdbc-data-source>\n  <name>" + name + "</name>\n  <jdbc-driver-params>\n"
                + "    <url>" + url + "</url>\n  </jdbc-driver-params>\n</jdbc-data-source>\n");
        return "  <jdbc-system-resource>\n    <name>" + name + "</name>\n    <descriptor-file-name>jdbc/" + name
                + "-jdbc.xml</descriptor-file-name>\n  </jdbc-system-resource>\n";
    }

    private Path write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }
}
