package io.siteflow.processor.topology;

import io.siteflow.rules.load.LoadResult;
import io.siteflow.rules.load.SiteModelLoader;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.streams.processor.StateStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The site model in force, parsed once per change of the YAML on {@code siteflow.sites}: the global thread offers
 * each new text as it arrives ({@link GlobalTextStep}), processors take the model in force for every record (a
 * volatile read); the query side hands it the text it reads. A text with errors (or one the loader fails on) is
 * logged once with every diagnostic and ignored: the previous model stays in force, and {@link #rejection()} says
 * so (on {@code /health} and as the gauge {@code siteflow_processor_site_model_rejected}) until a valid text
 * arrives. No text stops the processor. Thread-safe (shared by all stream threads and the query side).
 */
public final class ModelCache {
    private static final Logger LOG = LoggerFactory.getLogger(ModelCache.class);
    private final Clock clock;
    private volatile ActiveModel current;
    private volatile String rejected;
    private volatile String rejection;

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

    /**
     * Why the newest text offered is not in force, e.g. {@code site model on siteflow.sites rejected (2 errors,
     * first: sites@siteflow.sites:1:12: threshold: ...); keeping sha256:...}; empty while the newest text is the
     * model in force (or none was offered).
     */
    public Optional<String> rejection() {
        return Optional.ofNullable(rejection);
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
        LoadResult r;
        ActiveModel loaded;
        try {
            r = SiteModelLoader.parse(TopologySpec.SITES_KEY + "@" + TopologySpec.SITES, yaml);
            loaded = r.model().map(m -> ActiveModel.of(m, yaml, clock.millis())).orElse(null);
        } catch (RuntimeException | StackOverflowError e) { // the loader never throws for bad content: a bug
            return reject(yaml, c, List.of("cannot load: " + e), 1);
        }
        if (loaded == null) {
            return reject(yaml, c, r.errors().stream().map(Object::toString).toList(), r.errors().size());
        }
        rejection = null;
        current = loaded;
        LOG.info("site model {} in force ({} audited pairs)", current.model().version(), current.pairs().size());
        return Optional.of(current);
    }

    private Optional<ActiveModel> reject(String yaml, ActiveModel kept, List<String> errors, int count) {
        rejected = yaml;
        String keeping = kept == null ? "no model in force" : "keeping " + kept.model().version();
        rejection = "site model on " + TopologySpec.SITES + " rejected (" + count + (count == 1 ? " error" : " errors")
                + (errors.isEmpty() ? "" : ", first: " + errors.get(0)) + "); " + keeping;
        LOG.error("site model on {} has errors, {}:\n{}", TopologySpec.SITES, keeping, String.join("\n", errors));
        return Optional.ofNullable(kept);
    }
}
