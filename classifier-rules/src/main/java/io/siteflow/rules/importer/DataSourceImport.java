package io.siteflow.rules.importer;

import io.siteflow.rules.model.Category;
import io.siteflow.rules.model.Role;
import java.util.List;

/** The data sources of a domain: database hosts and listener ports from their URLs, for {@link ModelBuilder}. */
final class DataSourceImport {
    private static final String LEFT_OUT = "; its database hosts are left out";

    private final ModelBuilder builder;
    private final TnsNames tnsNames;

    DataSourceImport(ModelBuilder builder, TnsNames tnsNames) {
        this.builder = builder;
        this.tnsNames = tnsNames;
    }

    void addAll(List<Domain.DataSource> sources) {
        sources.forEach(this::add);
    }

    private void add(Domain.DataSource ds) {
        String element = "data source " + ds.name();
        JdbcUrl.Target target = JdbcUrl.parse(ds.url());
        String via = "";
        if (target instanceof JdbcUrl.Alias alias) {
            via = " via alias " + alias.name();
            target = lookUp(alias.name());
        }
        if (target instanceof JdbcUrl.Unusable u) {
            builder.findings().error(ds.origin(), element, u.reason() + LEFT_OUT);
            return;
        }
        List<Endpoint> endpoints = ((JdbcUrl.Listeners) target).endpoints();
        builder.dbUse(new DomainPolicy.DbUse(ds.name(), ds.targets(), endpoints, l7(ds.url())));
        for (Endpoint e : endpoints) {
            String source = element + via + ", listener " + e;
            builder.ports().add(Category.DB, e.port(), Role.DB.name(), source);
            List<String> found = builder.addresses().resolve(e.host(), ds.origin(), element, "database host");
            for (int i = 0; i < found.size(); i++) {
                String a = found.get(i);
                String name = a.equals(e.host()) ? a : found.size() == 1 ? e.host() : e.host() + "-" + (i + 1);
                String shown = a.equals(e.host()) ? source : source + " (" + a + " in the hosts file)";
                builder.place(a, name, Role.DB.name(), shown, ds.origin(), element, "database address");
            }
        }
    }

    /** The L7 wire name of the database protocol a JDBC URL speaks. */
    static String l7(String url) {
        String u = url.trim().toLowerCase(java.util.Locale.ROOT);
        if (u.startsWith("jdbc:postgresql:")) {
            return "postgresql";
        }
        return u.startsWith("jdbc:mysql:") || u.startsWith("jdbc:mariadb:") ? "mysql" : "oracle-tns";
    }

    private JdbcUrl.Target lookUp(String alias) {
        if (tnsNames.fileName().isEmpty()) {
            return new JdbcUrl.Unusable("alias " + alias + " needs a tnsnames.ora (--tnsnames)");
        }
        return tnsNames.find(alias).<JdbcUrl.Target>map(e -> TnsDescriptor.listeners(e.descriptor())
                .<JdbcUrl.Target>map(JdbcUrl.Listeners::new)
                .orElse(new JdbcUrl.Unusable("alias " + alias + " (" + e.origin() + ") has no ADDRESS with HOST and PORT")))
                .orElse(new JdbcUrl.Unusable("alias " + alias + " is not in " + tnsNames.fileName()));
    }
}
