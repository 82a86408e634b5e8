package io.siteflow.systemtest.archfixture.cycle.a;

import io.siteflow.systemtest.archfixture.cycle.b.B;

/** Half of a package cycle on purpose (a uses b, b uses a): ArchitectureTest shows the cycle rule fails. */
public final class A {
    private A() {
    }

    static int b() {
        return B.a() + 1;
    }

    public static int one() {
        return 1;
    }
}
