package io.siteflow.bench;

import io.siteflow.rules.classify.Classifier;
import io.siteflow.rules.model.Flow;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Classifier throughput on {@link SyntheticModel} (50 sites, 5,000 hosts, 200 rules): one operation is one
 * flow classified, so the score is flows per second on one thread. Goal (DESIGN.md): at least 5 M flows/s.
 * Run: {@code java -cp "bench/target/classes:bench/target/lib/*" org.openjdk.jmh.Main ClassifierBenchmark -f 1 -wi 2 -i 3}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ClassifierBenchmark {
    static final int BATCH = 4096;

    private Classifier classifier;
    private Flow[] flows;

    @Setup
    public void setUp() {
        classifier = new Classifier(SyntheticModel.model());
        List<Flow> list = SyntheticModel.flows(BATCH, 7);
        flows = list.toArray(new Flow[0]);
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void classify(Blackhole bh) {
        Classifier c = classifier;
        for (Flow f : flows) {
            bh.consume(c.classify(f.proto(), f.srcHi(), f.srcLo(), f.dstHi(), f.dstLo(), f.dstPort(), f.l7()));
        }
    }
}
