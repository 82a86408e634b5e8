package io.siteflow.lab;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code lab nudge}: one datagram across the router that region-1-filtered captures ignore ({@link TrafficLab#nudge()}). */
@Command(name = "nudge", description = "Wake captures on the idle router interface (e.g. iftop -t -s N) "
        + "with one datagram outside region 1.")
final class LabNudgeCommand implements Callable<Integer> {
    @Mixin
    LabOptions lab;

    @Override
    public Integer call() throws Exception {
        try (TrafficLab t = TrafficLab.attach(lab.prefix, TrafficLab.DEFAULT_DELAY_NANOS)) {
            t.nudge();
        }
        return 0;
    }
}
