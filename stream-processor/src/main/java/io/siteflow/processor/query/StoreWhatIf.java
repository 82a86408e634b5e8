package io.siteflow.processor.query;

import io.siteflow.processor.topology.ActiveModel;
import io.siteflow.processor.topology.ModelCache;
import io.siteflow.processor.topology.whatif.WhatIfStores;
import io.siteflow.rules.model.Host;
import io.siteflow.rules.verdict.SitePairRtts;
import io.siteflow.rules.whatif.ServerTraffic;
import io.siteflow.rules.whatif.WhatIf;
import io.siteflow.rules.whatif.WhatIfReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.HostInfo;

/**
 * {@code /api/whatif} from the what-if stage's stores (stream-processor/docs/topology.md, "What-if stage"): the
 * server's days read where its task runs ({@link Cluster#owner(String, String)} of {@link WhatIfStores#SERVERS}:
 * this instance's store, or another instance's through {@link InstanceClient}), the site-pair RTTs of every
 * instance, answered with {@link WhatIf#report} under the model in force, as {@code siteflow whatif} answers from
 * the same inputs. A server without records is answered with zeros. No topic is read and nothing is locked: each
 * question reads the stores' snapshot of the last commit. Thread-safe.
 *
 * <p>Failures: {@link WhatIfSource.Unavailable} without a model in force; {@link OwnersMovingException} naming the
 * server when its owner is moving (no owner during a rebalance, an owner that does not answer, its task not running
 * here yet) or naming an instance that does not answer for the RTTs; {@link InvalidStateStoreException} when this
 * instance's stores are not queryable on a single instance.
 */
public final class StoreWhatIf implements WhatIfSource {
    private final LocalStoreView local;
    private final Cluster cluster;
    private final InstanceClient client;
    private final ModelCache models;

    public StoreWhatIf(LocalStoreView local, Cluster cluster, InstanceClient client, ModelCache models) {
        this.local = local;
        this.cluster = cluster;
        this.client = client;
        this.models = models;
    }

    @Override
    public WhatIfReport whatIf(String server, String site) {
        ActiveModel m = models.forYaml(local.sitesYaml())
                .orElseThrow(() -> new Unavailable("what-if: no site model in force", null));
        WhatIf.Move move = WhatIf.Move.of(m.model(), server, site); // an unknown name is refused before reading
        ServerTraffic traffic = traffic(move.server());
        return WhatIf.report(move, m.model().rttLimit(), rtts(), traffic);
    }

    /** The server's inputs from the instance that runs its task. */
    private ServerTraffic traffic(Host server) {
        String why;
        Cluster.Owner owner = cluster.owner(WhatIfStores.SERVERS, server.address());
        if (owner instanceof Cluster.Moving moving) {
            why = moving.reason();
        } else if (owner instanceof Cluster.At at) {
            try {
                return orEmpty(client.at(at.host()).whatIfTraffic(server.address(), at.partition()));
            } catch (InstanceClient.RemoteQueryException e) {
                why = "its owner " + at.host().host() + ":" + at.host().port() + " cannot answer: " + e.getMessage();
            }
        } else {
            int partition = ((Cluster.Here) owner).partition();
            try {
                return orEmpty(local.whatIfTraffic(server.address(), partition));
            } catch (InvalidStateStoreException e) {
                if (partition == StoreView.ANY_PARTITION) {
                    throw e;
                }
                why = "its task (partition " + partition + ") is not running on this instance yet (restoring its "
                        + "state or rebalancing): " + e.getMessage();
            }
        }
        throw new OwnersMovingException("what-if inputs", "servers",
                List.of(OwnersMovingException.Unavailable.of(server, why)), List.of(), 1);
    }

    private static ServerTraffic orEmpty(java.util.Optional<ServerTraffic> t) {
        return t.orElseGet(ServerTraffic::bounded);
    }

    /** The site-pair RTTs of every instance, merged. */
    private SitePairRtts rtts() {
        Map<String, StoreView> views = new LinkedHashMap<>();
        views.put("this instance", local);
        for (HostInfo h : cluster.others(WhatIfStores.RTTS)) {
            views.put(h.host() + ":" + h.port(), client.at(h));
        }
        SitePairRtts out = new SitePairRtts();
        List<OwnersMovingException.Unavailable> moving = new ArrayList<>();
        views.forEach((at, v) -> {
            try {
                v.whatIfRtts().histograms().forEach(out::merge);
            } catch (InstanceClient.RemoteQueryException e) {
                moving.add(new OwnersMovingException.Unavailable(at, at, "instance " + at + " cannot answer: "
                        + e.getMessage()));
            }
        });
        if (!moving.isEmpty()) { // a site pair's RTT without some of its samples would be another figure
            throw new OwnersMovingException("what-if site-pair RTTs", "instances", moving, List.of(), views.size());
        }
        return out;
    }
}
