package io.siteflow.model.archfixture;

import org.assertj.core.api.Assertions;

/** Breaks the import rule on purpose (a library outside JDK and Jackson): ArchitectureTest shows the rule fails. */
public final class UsesATestLibrary {
    private UsesATestLibrary() {
    }

    static void check(Object o) {
        Assertions.assertThat(o).isNotNull();
    }
}
