package io.siteflow.kafka.archfixture;

import org.assertj.core.api.Assertions;

/** Breaks the import rule on purpose (a library kafka-client does not use): ArchitectureTest shows the rule fails. */
public final class UsesATestLibrary {
    private UsesATestLibrary() {
    }

    static void check(Object o) {
        Assertions.assertThat(o).isNotNull();
    }
}
