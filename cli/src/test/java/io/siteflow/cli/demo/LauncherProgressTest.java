package io.siteflow.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code siteflow} launcher's first build shows Maven's progress: a line per module with its place in the
 * reactor and the time since the start, then the total. Run on a copy of the launcher with a stand-in
 * {@code mvn} (printing Maven's reactor lines and making the jars) and {@code java} on the PATH.
 */
class LauncherProgressTest {
    @TempDir
    Path dir;

    @Test
    void firstBuildShowsEachModuleAndTheElapsedTime() throws Exception {
        Path root = Files.createDirectories(dir.resolve("root"));
        Path source = Path.of(System.getProperty("siteflow.root", ".."));
        Files.copy(source.resolve("siteflow"), root.resolve("siteflow"));
        Files.createDirectories(root.resolve("deploy/bin")); // the JVM options, shared with the distribution
        Files.copy(source.resolve("deploy/bin/jvm-options.sh"), root.resolve("deploy/bin/jvm-options.sh"));
        executable(root.resolve("siteflow"));
        Path bin = Files.createDirectories(dir.resolve("bin"));
        script(bin.resolve("mvn"), """
                echo "[INFO] Scanning for projects..."
                echo "[INFO] Building siteflow flow model 0.1.0-SNAPSHOT                        [1/2]"
                echo "[INFO] --- compiler:3.13.0:compile (default-compile) @ flow-model ---"
                printf '\\033[0m'
                echo "[INFO] Building siteflow cli 0.1.0-SNAPSHOT                               [2/2]"
                mkdir -p cli/target/lib && touch cli/target/siteflow-cli-0.1.0-SNAPSHOT.jar
                printf '\\033[0m\\033[0m'
                """);
        script(bin.resolve("java"), "echo \"java $*\"\n");

        ProcessBuilder pb = new ProcessBuilder(root.resolve("siteflow").toString(), "--version")
                .redirectError(dir.resolve("err.txt").toFile()).redirectOutput(dir.resolve("out.txt").toFile());
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();

        String err = Files.readString(dir.resolve("err.txt"), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(err).isZero();
        assertThat(err).matches("siteflow: building \\(first use or sources changed; log in " + root
                + "/\\.siteflow/build\\.log\\)\\.\\.\\.\n"
                + "siteflow: building \\[1/2\\] siteflow flow model, 0:0\\d elapsed\n"
                + "siteflow: building \\[2/2\\] siteflow cli, 0:0\\d elapsed\n"
                + "siteflow: built in \\d s\n");
        assertThat(Files.readString(root.resolve(".siteflow/build.log"))).contains("[INFO] --- compiler:3.13.0:compile");
        assertThat(Files.readString(dir.resolve("out.txt"))).contains("io.siteflow.cli.SiteflowCommand --version");
    }

    private static void script(Path file, String body) throws IOException {
        Files.writeString(file, "#!/bin/sh\n" + body);
        executable(file);
    }

    private static void executable(Path file) throws IOException {
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
