package io.siteflow.lab;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code lab record FILE}: a run while tcpdump records the router's region-2 interface: the demo capture. */
@Command(name = "record", description = "Record a run with tcpdump on the router's region-2 interface.")
final class LabRecordCommand implements Callable<Integer> {
    @Mixin
    LabOptions lab;

    @Mixin
    LabRunOptions run;

    @Parameters(index = "0", paramLabel = "FILE", description = "pcap file to write")
    Path file;

    @Option(names = "--out", description = "truth file (default: FILE without .pcap + .truth.json)")
    Path out;

    @Override
    public Integer call() throws Exception {
        RunSpec spec = run.spec();
        Path truthFile = out != null ? out : file.resolveSibling(file.getFileName().toString()
                .replaceFirst("\\.pcap$", "") + ".truth.json");
        try (TrafficLab t = LabRunOptions.open(lab)) {
            LabRunOptions.report(t.record(file, spec), truthFile);
        }
        System.out.println("capture: " + file);
        return 0;
    }
}
