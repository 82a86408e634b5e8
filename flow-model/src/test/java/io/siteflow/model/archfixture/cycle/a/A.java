package io.siteflow.model.archfixture.cycle.a;

import io.siteflow.model.archfixture.cycle.b.B;

/** Half of a package cycle built on purpose: ArchitectureTest shows the cycle rule fails. */
public final class A {
    private A() {
    }

    static B other() {
        return null;
    }
}
