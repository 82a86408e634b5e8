package io.siteflow.rules.verdict;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;

/**
 * One database's site comparison as JSON, the same in {@code siteflow audit --format json} ({@code dbSites}) and
 * {@code GET /api/dbsites}: {@code {"database", "name", "site", "localServers", "remoteServers", "local": {dbCalls},
 * "remote": {dbCalls}, "callRatio", "connectionRatio"}}, the two call objects as {@link DbCallJson} writes the
 * verdict's {@code dbCalls}. Thread-safe.
 */
public final class DbSiteJson {
    private DbSiteJson() {
    }

    /** Writes the comparison as one object. */
    public static void write(DbSiteComparison d, JsonGenerator g) throws IOException {
        g.writeStartObject();
        g.writeStringField("database", d.database());
        g.writeStringField("name", d.name());
        g.writeStringField("site", d.site());
        g.writeNumberField("localServers", d.localServers());
        g.writeNumberField("remoteServers", d.remoteServers());
        DbCallJson.write("local", d.local(), g);
        DbCallJson.write("remote", d.remote(), g);
        g.writeNumberField("callRatio", d.callRatio());
        g.writeNumberField("connectionRatio", d.connectionRatio());
        g.writeEndObject();
    }
}
