package io.siteflow.cli.archfixture.b;

/** The other half of a package cycle, for {@code ArchitectureTest} to catch. */
public final class NeedsA {
    public static int value() {
        return io.siteflow.cli.archfixture.a.NeedsB.value();
    }
}
