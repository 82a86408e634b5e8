package io.siteflow.rules.importer;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.rules.load.Diagnostic;
import java.util.List;
import org.junit.jupiter.api.Test;

/** tnsnames.ora and hosts files as the importer reads them. */
class NameFilesTest {

    @Test
    void tnsnamesFindsAliasesCaseInsensitivelyAcrossLinesAndComments() {
        TnsNames t = TnsNames.parse("tnsnames.ora", """
                # comment (with parentheses)
                SOARAC, soarac.example.com =
                  (DESCRIPTION =   # the RAC
                    (ADDRESS = (PROTOCOL = TCP)(HOST = scan)(PORT = 1523)))
                REP=(DESCRIPTION=(ADDRESS=(HOST=10.1.0.40)(PORT=1521)))
                """);

        TnsNames.Entry soarac = t.find("soarac").orElseThrow();
        assertThat(soarac.origin()).isEqualTo(new Origin("tnsnames.ora", 2, 1));
        assertThat(TnsDescriptor.listeners(soarac.descriptor()).orElseThrow()).containsExactly(new Endpoint("scan", 1523));
        assertThat(t.find("SOARAC.EXAMPLE.COM").orElseThrow().alias()).isEqualTo("soarac.example.com");
        assertThat(t.find("rep").orElseThrow().origin()).isEqualTo(new Origin("tnsnames.ora", 5, 1));
        assertThat(t.find("rep.example.com")).isEmpty();
        assertThat(t.find("missing")).isEmpty();
    }

    @Test
    void hostsFileGivesEveryAddressOfANameAndReportsABadLine() {
        Findings f = new Findings();
        HostsFile h = HostsFile.parse("hosts.txt", """
                10.1.0.13 db-scan  # one SCAN address
                10.1.0.14 DB-SCAN
                  dbhost 10.1.0.99
                fd00:1::7 db6
                """, f);

        assertThat(h.resolve("db-scan")).containsExactly("10.1.0.13", "10.1.0.14");
        assertThat(h.resolve("db6")).containsExactly("fd00:1::7");
        assertThat(h.resolve("dbhost")).isEmpty();
        assertThat(f.all()).map(Diagnostic::toString)
                .isEqualTo(List.of("hosts.txt:3:3: warning: \"dbhost\" is not an IP address; line ignored"));
    }
}
