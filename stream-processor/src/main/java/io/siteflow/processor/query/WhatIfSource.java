package io.siteflow.processor.query;

import io.siteflow.rules.whatif.WhatIf;
import io.siteflow.rules.whatif.WhatIfReport;

/**
 * Answers {@code /api/whatif}: the what-if of moving a server to another site ({@link WhatIf}) over the records
 * the processor holds. Implementations are thread-safe.
 */
public interface WhatIfSource {
    /** The what-if cannot be answered now (no site model in force, Kafka not answering); the API answers 503. */
    final class Unavailable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public Unavailable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * @param server a host of the site model in force, by name or address
     * @param site   a site of that model
     * @throws WhatIf.UnknownName when the model has no such host or site
     * @throws Unavailable        when it cannot be answered now
     */
    WhatIfReport whatIf(String server, String site);

    /** A server without the what-if (tests of other endpoints). */
    WhatIfSource NONE = (server, site) -> {
        throw new Unavailable("what-if: not served by this server", null);
    };
}
