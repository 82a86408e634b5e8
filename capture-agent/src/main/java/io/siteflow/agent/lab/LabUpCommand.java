package io.siteflow.agent.lab;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
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
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(List.of("ip", "netns", "exec", t.router(), java, "-Xmx128m",
                "-cp", System.getProperty("java.class.path"), LabMain.class.getName(), "bridge",
                "--prefix", lab.prefix, "--delay-nanos", String.valueOf(delayNanos)))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!Files.readString(log).contains("bridging")) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                LabNetwork.down(t);
                System.err.println("lab up: the bridge did not start: " + Files.readString(log).strip());
                return 1;
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
        Files.writeString(dir.resolve("delay-nanos"), String.valueOf(delayNanos));
        System.out.printf("lab %s up: %s (region1 %s), %s (router, bridge pid %d, %.3f ms one way), %s (region2 %s);"
                + " capture on %s in %s%n", t.prefix(), t.region1(), LabTopology.CIDR_R1, t.router(), p.pid(), delayMs,
                t.region2(), LabTopology.CIDR_R2, LabTopology.IF_RT_R2, t.router());
        return 0;
    }
}
