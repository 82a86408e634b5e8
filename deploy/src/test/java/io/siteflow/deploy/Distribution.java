package io.siteflow.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** The distribution archive of this build (Failsafe names it in {@code siteflow.distribution}), unpacked. */
final class Distribution {
    static final String VERSION = System.getProperty("siteflow.version", "0.1.0-SNAPSHOT");
    static final String JAVA_BIN = Path.of(System.getProperty("java.home"), "bin").toString();

    private Distribution() {
    }

    /** Unpacks the archive into {@code dir} and returns the distribution's home, {@code dir/siteflow-VERSION}. */
    static Path unpack(Path dir) throws Exception {
        Path archive = Path.of(System.getProperty("siteflow.distribution",
                "target/siteflow-" + VERSION + ".tar.gz")).toAbsolutePath();
        assertThat(archive).as("run mvn package first").isRegularFile();
        Processes.Result r = Processes.run(dir, Map.of(),
                List.of("tar", "-xzf", archive.toString(), "-C", dir.toString()), 120);
        assertThat(r.exitCode()).as(r.output()).isZero();
        return dir.resolve("siteflow-" + VERSION);
    }

    /** An environment with nothing but a plain {@code java} on PATH. */
    static Map<String, String> plainJava() {
        return Map.of("PATH", JAVA_BIN + ":/usr/bin:/bin", "LANG", "C.UTF-8");
    }
}
