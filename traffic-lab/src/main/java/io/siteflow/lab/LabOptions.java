package io.siteflow.lab;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Options every lab command shares: the namespace prefix, and where {@code up} keeps the lab's state. */
final class LabOptions {
    @Option(names = "--prefix", defaultValue = "sflab", description = "namespace prefix (default: ${DEFAULT-VALUE})")
    String prefix;

    LabTopology topology() {
        return new LabTopology(prefix);
    }

    /** {@code /tmp/siteflow-lab-PREFIX}: the bridge's log and {@code delay-nanos}. */
    Path stateDir() {
        return Path.of(System.getProperty("java.io.tmpdir"), "siteflow-lab-" + prefix);
    }
}
