package io.siteflow.systemtest.archfixture.cycle.b;

import io.siteflow.systemtest.archfixture.cycle.a.A;

/** The other half of the package cycle of {@code A}. */
public final class B {
    private B() {
    }

    public static int a() {
        return A.one();
    }
}
