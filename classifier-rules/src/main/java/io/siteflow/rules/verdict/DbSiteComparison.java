package io.siteflow.rules.verdict;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * One database's DB calls from the app servers of its own site beside those from the other sites ({@link DbSites}).
 *
 * @param database        the db host's address
 * @param name            its name
 * @param site            its site
 * @param localServers    app servers of its site seen calling it
 * @param remoteServers   app servers of other sites seen calling it
 * @param local           the local servers' DB calls, all together
 * @param remote          the remote servers' DB calls, all together
 * @param callRatio       remote call p50 / local call p50, 4 decimals (0 when a side has no calls)
 * @param connectionRatio remote connections per server / local connections per server (connection medians divided by
 *                        the servers of each side), 4 decimals (0 when a side has none)
 */
public record DbSiteComparison(String database, String name, String site, int localServers, int remoteServers,
                               DbCallSummary local, DbCallSummary remote, BigDecimal callRatio,
                               BigDecimal connectionRatio) {
    public DbSiteComparison {
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(local, "local");
        Objects.requireNonNull(remote, "remote");
        Objects.requireNonNull(callRatio, "callRatio");
        Objects.requireNonNull(connectionRatio, "connectionRatio");
    }
}
