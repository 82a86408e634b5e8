package io.siteflow.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code lab up}: builds the namespaces and starts the bridge as its own JVM inside the router namespace
 * ({@code lab bridge}, log in the state directory), returning once it bridges.
 */
@Command(name = "up", description = "Build the namespaces and start the delaying router.")
final class LabUpCommand implements Callable<Integer> {
    @Mixin
    LabOptions lab;

    @Option(names = "--delay-ms", defaultValue = "3.25", description = "one-way delay between the sites, ms "
            + "(default: ${DEFAULT-VALUE}, i.e. 6.5 ms RTT)")
    double delayMs;

    @Override
    public Integer call() throws Exception {
        LabTopology t = lab.topology();
        long delayNanos = Math.round(delayMs * 1_000_000);
        Path dir = Files.createDirectories(lab.stateDir());
        Path log = dir.resolve("bridge.log");
        Files.deleteIfExists(log);
        LabNetwork.up(t);
        BridgeProcess p;
        try {
            p = BridgeProcess.start(t, delayNanos, log);
        } catch (IOException e) {
            LabNetwork.down(t);
            throw e;
        }
        Files.writeString(dir.resolve("delay-nanos"), String.valueOf(delayNanos));
        System.out.printf("lab %s up: %s (region1 %s), %s (router, bridge pid %d, %.3f ms one way), %s (region2 %s);"
                + " capture on %s in %s%n", t.prefix(), t.region1(), LabTopology.CIDR_R1, t.router(), p.pid(), delayMs,
                t.region2(), LabTopology.CIDR_R2, LabTopology.IF_RT_R2, t.router());
        return 0;
    }
}
