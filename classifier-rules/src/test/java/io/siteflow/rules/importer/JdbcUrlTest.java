package io.siteflow.rules.importer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Every JDBC URL form the importer reads, and the ones it says it cannot. */
class JdbcUrlTest {

    @Test
    void readsTheThinHostPortSidForm() {
        assertThat(JdbcUrl.parse("jdbc:oracle:thin:@10.1.0.10:1521:soadb"))
                .isEqualTo(new JdbcUrl.Listeners(List.of(new Endpoint("10.1.0.10", 1521))));
    }

    @Test
    void readsTheServiceFormWithAndWithoutSlashesAndDefaultsThePort() {
        assertThat(JdbcUrl.parse("jdbc:oracle:thin:@//db1.example.com:1522/soapdb.example.com"))
                .isEqualTo(new JdbcUrl.Listeners(List.of(new Endpoint("db1.example.com", 1522))));
        assertThat(JdbcUrl.parse("jdbc:oracle:thin:scott/tiger@db1:1523/soapdb"))
                .isEqualTo(new JdbcUrl.Listeners(List.of(new Endpoint("db1", 1523))));
        assertThat(JdbcUrl.parse("jdbc:oracle:thin:@//db1/soapdb"))
                .isEqualTo(new JdbcUrl.Listeners(List.of(new Endpoint("db1", 1521))));
    }

    @Test
    void readsEveryAddressOfTheLongForm() {
        String url = "jdbc:oracle:thin:@(DESCRIPTION_LIST=(DESCRIPTION=(ADDRESS_LIST=(LOAD_BALANCE=on)"
                + "(ADDRESS=(PROTOCOL=TCP)(HOST=rac1-vip)(PORT=1521))(address = (protocol = tcp)(port = 1522)"
                + "(host = 10.1.0.12))))(DESCRIPTION=(ADDRESS=(PROTOCOL=TCP)(HOST=scan2)(PORT=1523)))"
                + "(CONNECT_DATA=(SERVICE_NAME=soa)))";

        assertThat(JdbcUrl.parse(url)).isEqualTo(new JdbcUrl.Listeners(List.of(new Endpoint("rac1-vip", 1521),
                new Endpoint("10.1.0.12", 1522), new Endpoint("scan2", 1523))));
    }

    @Test
    void givesAnAliasForTnsnames() {
        assertThat(JdbcUrl.parse("jdbc:oracle:thin:@SOARAC")).isEqualTo(new JdbcUrl.Alias("SOARAC"));
    }

    @Test
    void readsPostgresqlAndMysqlUrls() {
        assertThat(JdbcUrl.parse("jdbc:postgresql://pg1:5433/app?ssl=true"))
                .isEqualTo(new JdbcUrl.Listeners(List.of(new Endpoint("pg1", 5433))));
        assertThat(JdbcUrl.parse("jdbc:mysql://10.1.0.50/app"))
                .isEqualTo(new JdbcUrl.Listeners(List.of(new Endpoint("10.1.0.50", 3306))));
    }

    @Test
    void saysWhyAUrlIsOfNoUse() {
        assertThat(JdbcUrl.parse("jdbc:oracle:thin:@ldaps://oid:636/soadb,cn=OracleContext"))
                .isEqualTo(new JdbcUrl.Unusable("LDAP URL jdbc:oracle:thin:@ldaps://oid:636/soadb,cn=OracleContext is not supported"));
        assertThat(JdbcUrl.parse("  ")).isEqualTo(new JdbcUrl.Unusable("no URL"));
        assertThat(JdbcUrl.parse("jdbc:oracle:thin:@(DESCRIPTION=(CONNECT_DATA=(SID=x)))"))
                .isEqualTo(new JdbcUrl.Unusable("URL jdbc:oracle:thin:@(DESCRIPTION=(CONNECT_DATA=(SID=x))) has no ADDRESS with HOST and PORT"));
        assertThat(JdbcUrl.parse("jdbc:oracle:thin:@db1:70000:soadb"))
                .isEqualTo(new JdbcUrl.Unusable("URL jdbc:oracle:thin:@db1:70000:soadb: \"70000\" is not a port (1-65535)"));
        assertThat(JdbcUrl.parse("jdbc:sqlserver://db1:1433"))
                .isEqualTo(new JdbcUrl.Unusable("URL jdbc:sqlserver://db1:1433 is not an Oracle thin, PostgreSQL or MySQL URL"));
    }
}
