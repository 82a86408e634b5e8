package io.siteflow.processor.topology;

import io.siteflow.rules.load.LoadResult;
import io.siteflow.rules.load.SiteModelLoader;
import java.time.Clock;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The site model in force, parsed once per change of the YAML on {@code siteflow.sites}. Processors hand it
 * the text they read from the global store on every record; the text is compared with the one in force (a
 * string comparison, no parse) and only a new text is loaded. A text with errors is logged once with every
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
