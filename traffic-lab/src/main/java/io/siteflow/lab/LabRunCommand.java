package io.siteflow.lab;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code lab run}: runs the traffic (in a lab that is up, or in one built for this run) and writes the truth. */
@Command(name = "run", description = "Run the traffic and write the ground truth.")
final class LabRunCommand implements Callable<Integer> {
    @Mixin
    LabOptions lab;

    @Mixin
    LabRunOptions run;

    @Option(names = "--out", defaultValue = "truth.json", description = "truth file (default: ${DEFAULT-VALUE})")
    Path out;

    @Override
    public Integer call() throws Exception {
        RunSpec spec = run.spec();
        try (TrafficLab t = LabRunOptions.open(lab)) {
            LabRunOptions.report(t.run(spec), out);
        }
        return 0;
    }
}
