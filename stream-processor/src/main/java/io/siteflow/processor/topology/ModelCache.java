package io.siteflow.processor.topology;

import io.siteflow.rules.load.LoadResult;
import io.siteflow.rules.load.SiteModelLoader;
import java.time.Clock;
import java.util.Optional;
import org.apache.kafka.streams.processor.StateStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The site model in force, parsed once per change of the YAML on {@code siteflow.sites}: the global thread offers
 * each new text as it arrives ({@link GlobalTextStep}), processors take the model in force for every record (a
 * volatile read); the query side hands it the text it reads. A text with errors is logged once with every
 * diagnostic and ignored: the previous model stays in force. Thread-safe (shared by all stream threads and
 * the query side).
 */
public final class ModelCache {
    private static final Logger LOG = LoggerFactory.getLogger(ModelCache.class);
    private final Clock clock;
    private volatile ActiveModel current;
    private volatile String rejected;

    public ModelCache() {
        this(Clock.systemUTC());
    }

    public ModelCache(Clock clock) {
        this.clock = clock;
    }

    /**
     * The model for this text: the one in force when the text is unchanged, else the text loaded now; the
     * model in force (possibly none) when the text has errors or is null.
     */
    public Optional<ActiveModel> forYaml(String yaml) {
        ActiveModel c = current;
        if (yaml == null || c != null && c.yaml().equals(yaml)) {
            return Optional.ofNullable(c);
        }
        return load(yaml);
    }

    /**
     * The model in force for a processor: the one the global thread last {@link #offer offered}, else (after a
     * restart, whose restored store is not offered) the one the store's text gives.
     */
    Optional<ActiveModel> inForce(StateStore sites) {
        ActiveModel c = current;
        return c != null ? Optional.of(c) : forYaml(GlobalText.get(sites, TopologySpec.SITES_KEY));
    }

    /** A new text on {@code siteflow.sites} (the global thread): loaded now unless unchanged or rejected before. */
    void offer(String key, String yaml) {
        if (TopologySpec.SITES_KEY.equals(key)) {
            forYaml(yaml);
        }
    }

    /** The model in force, empty before the first valid one. */
    public Optional<ActiveModel> current() {
        return Optional.ofNullable(current);
    }

    private synchronized Optional<ActiveModel> load(String yaml) {
        ActiveModel c = current;
        if (c != null && c.yaml().equals(yaml) || yaml.equals(rejected)) {
            return Optional.ofNullable(c);
        }
        LoadResult r = SiteModelLoader.parse(TopologySpec.SITES_KEY + "@" + TopologySpec.SITES, yaml);
        if (r.model().isEmpty()) {
            rejected = yaml;
            LOG.error("site model on {} has errors, keeping {}:\n{}", TopologySpec.SITES,
                    c == null ? "no model" : c.model().version(), String.join("\n",
                            r.errors().stream().map(Object::toString).toList()));
            return Optional.ofNullable(c);
        }
        current = ActiveModel.of(r.model().get(), yaml, clock.millis());
        LOG.info("site model {} in force ({} audited pairs)", current.model().version(), current.pairs().size());
        return Optional.of(current);
    }
}
