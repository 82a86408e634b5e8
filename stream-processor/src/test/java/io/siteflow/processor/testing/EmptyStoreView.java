package io.siteflow.processor.testing;

import io.siteflow.processor.query.StoreView;
import io.siteflow.processor.query.TalkerRow;
import io.siteflow.processor.topology.Alert;
import java.util.List;
import java.util.Optional;

/** A {@link StoreView} that holds nothing; tests override what they need. */
public class EmptyStoreView implements StoreView {
    @Override
    public Optional<String> cumulative(String pairKey, int partition) {
        return Optional.empty();
    }

    @Override
    public boolean observerDrops(String server, int partition) {
        return false;
    }

    @Override
    public List<String> latestWindows() {
        return List.of();
    }

    @Override
    public List<String> windows(long fromMs, long toMs) {
        return List.of();
    }

    @Override
    public List<Alert> alerts(int limit) {
        return List.of();
    }

    @Override
    public List<Long> baselineStarts() {
        return List.of();
    }

    @Override
    public List<io.siteflow.rules.isolation.IsolationEdge> isolationEdges(long fromMs, long toMs) {
        return List.of();
    }

    @Override
    public List<io.siteflow.rules.isolation.HostRtt> isolationRtts() {
        return List.of();
    }

    @Override
    public Optional<io.siteflow.rules.whatif.ServerTraffic> whatIfTraffic(String address, int partition) {
        return Optional.empty();
    }

    @Override
    public io.siteflow.rules.verdict.SitePairRtts whatIfRtts() {
        return new io.siteflow.rules.verdict.SitePairRtts();
    }

    @Override
    public List<TalkerRow> talkers(boolean ports, String category, int limit) {
        return List.of();
    }
}
