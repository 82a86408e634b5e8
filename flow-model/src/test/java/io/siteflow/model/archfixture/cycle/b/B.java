package io.siteflow.model.archfixture.cycle.b;

import io.siteflow.model.archfixture.cycle.a.A;

/** The other half of the package cycle of {@link A}. */
public final class B {
    private B() {
    }

    static A other() {
        return null;
    }
}
