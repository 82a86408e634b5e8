package io.siteflow.lab;

import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code lab bridge}: runs the {@link DelayBridge} of a lab until SIGTERM, then prints its counters. */
@Command(name = "bridge", description = "Run the delaying router of a lab that is up (started by 'up').")
final class LabBridgeCommand implements Callable<Integer> {
    @Mixin
    LabOptions lab;

    @Option(names = "--delay-nanos", defaultValue = "3250000", description = "one-way delay, ns")
    long delayNanos;

    @Override
    public Integer call() throws Exception {
        LabTopology t = lab.topology();
        DelayBridge bridge = DelayBridge.start(t.router(), LabTopology.IF_RT_R1, LabTopology.IF_RT_R2, delayNanos);
        CountDownLatch done = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            bridge.close();
            bridge.stats().forEach(s -> System.out.println(BridgeProcess.statsLine(s)));
            System.out.flush();
            done.countDown();
        }));
        System.out.printf("bridging %s <-> %s in %s, %d ns one way%n", LabTopology.IF_RT_R1, LabTopology.IF_RT_R2,
                t.router(), delayNanos);
        done.await();
        return 0;
    }
}
