package io.siteflow.lab;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code lab down}: ends the lab's processes by PID and deletes exactly its namespaces; idempotent. */
@Command(name = "down", description = "Stop the lab's processes and delete its namespaces.")
final class LabDownCommand implements Callable<Integer> {
    @Mixin
    LabOptions lab;

    @Override
    public Integer call() throws Exception {
        LabTopology t = lab.topology();
        boolean was = LabNetwork.exists(t);
        LabNetwork.down(t);
        System.out.println(was ? "lab " + t.prefix() + " down" : "lab " + t.prefix() + " was not up");
        return 0;
    }
}
