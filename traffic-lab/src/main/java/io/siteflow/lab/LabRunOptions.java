package io.siteflow.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The options of {@code run} and {@code record}: duration, byte mix, DB service time, seed. */
final class LabRunOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Option(names = "--seconds", defaultValue = "60", description = "steady traffic, seconds (default: ${DEFAULT-VALUE})")
    long seconds;

    @Option(names = "--mix", defaultValue = "db=0.93", description = "DB share of every region-2 server's "
            + "cross-site bytes, db=F (default: ${DEFAULT-VALUE})")
    String mix;

    @Option(names = "--share", description = "DB share of one region-2 server, HOST=F (e.g. wls4=0.80); repeatable")
    List<String> shares = new ArrayList<>();

    @Option(names = "--db-service-ms", defaultValue = "0", description = "how long the lab's database works on each "
            + "SQL round trip before it answers, ms (0 to 1000; default: ${DEFAULT-VALUE}): a DB call costs the RTT + this")
    long dbServiceMs;

    @Option(names = "--seed", defaultValue = "42", description = "seed of sizes and timings (default: ${DEFAULT-VALUE})")
    long seed;

    /** The run spec; a bad value is a usage error (exit 64) naming the option. */
    RunSpec spec() {
        try {
            return parse();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(command.commandLine(), e.getMessage(), e);
        }
    }

    private RunSpec parse() {
        if (!mix.startsWith("db=")) {
            throw new IllegalArgumentException("--mix " + mix + ": expected db=F (F between 0 and 1)");
        }
        RunSpec spec = RunSpec.of(Duration.ofSeconds(seconds), number("--mix", mix.substring(3))).withSeed(seed)
                .withDbServiceTime(Duration.ofMillis(dbServiceMs));
        for (String s : shares) {
            int eq = s.indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException("--share " + s + ": expected HOST=F (e.g. wls4=0.80)");
            }
            spec = spec.withShare(s.substring(0, eq), number("--share", s.substring(eq + 1)));
        }
        return spec;
    }

    private static double number(String option, String text) {
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + ": \"" + text + "\" is not a number");
        }
    }

    /** Attaches to the lab when it is up (delay from its state), else builds one that closes with the result. */
    static TrafficLab open(LabOptions lab) throws Exception {
        LabTopology t = lab.topology();
        if (LabNetwork.exists(t)) {
            Path delay = lab.stateDir().resolve("delay-nanos");
            long nanos = Files.exists(delay) ? Long.parseLong(Files.readString(delay).strip())
                    : TrafficLab.DEFAULT_DELAY_NANOS;
            return TrafficLab.attach(t.prefix(), nanos);
        }
        return TrafficLab.up(t.prefix(), TrafficLab.DEFAULT_DELAY_NANOS);
    }

    /** Writes the truth and prints one line per region-2 server. */
    static void report(LabTruth truth, Path out) throws IOException {
        truth.writeJson(out);
        for (LabHost h : LabHost.REGION2_HOSTS) {
            System.out.printf("%s %s: %d cross-site IP bytes, DB share %.4f (target %.4f) %s%n", h.name(), h.address(),
                    truth.crossBytes(h.address()), truth.dbShare(h.address()),
                    truth.targetShares().get(h.address()), truth.categories(h.address()));
            DbCallTruth calls = truth.dbCalls().get(h.address());
            System.out.printf("%s DB calls: %d, %.2f/s, call time p50 %d us (lab clock)%n", h.name(), calls.calls(),
                    calls.callsPerSecond(), calls.p50Micros());
        }
        System.out.printf("truth: %s (%d conversations, %d packets, %d dropped by the counter)%n", out,
                truth.conversations().size(), truth.packets(), truth.droppedKernel());
    }

}
