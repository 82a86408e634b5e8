package io.siteflow.cli.archfixture.a;

/** Half of a package cycle, for {@code ArchitectureTest} to catch. */
public final class NeedsB {
    public static int value() {
        return io.siteflow.cli.archfixture.b.NeedsA.class.getName().length();
    }
}
