package io.siteflow.processor.http;

import io.siteflow.processor.query.SiteflowQueries;

/**
 * The remote-call side of interactive queries: a {@link SiteflowQueries} view of what <em>another</em>
 * instance holds in its own local state stores. The topology side (or {@link InstanceRouting}) calls it for
 * each instance that owns keys; {@link HttpInstanceClient} implements it over that instance's HTTP API with
 * {@code scope=local}, so an instance never forwards a forwarded request again.
 *
 * <p>Methods of the returned view throw {@link RemoteQueryException} when the instance cannot be reached or
 * answers badly. Implementations are thread-safe.
 */
@FunctionalInterface
public interface RemoteQueries {
    /** The local-state view of the instance at {@code endpoint}. */
    SiteflowQueries at(Endpoint endpoint);
}
