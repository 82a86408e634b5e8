package io.siteflow.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The two launchers, {@code ./siteflow} of the source tree and {@code bin/siteflow} of the distribution, start the
 * JVM with the same options (bin/jvm-options.sh): parallel GC, exit on the first OutOfMemoryError, pcap4j's address
 * families, the class-data sharing archive where they may write it (made by one training run, then mapped), C1
 * only for a short file read. Both run on copies with a stand-in {@code java} that logs its command line and
 * writes the archive it is asked for; the distribution adds only its logging configuration and home. The source
 * tree's launcher runs the cli's application jar, not the test-jar beside it.
 */
class LauncherJvmOptionsTest {
    private static final List<String> COMMON = List.of("-XX:+UseParallelGC", "-XX:+ExitOnOutOfMemoryError",
            "-Dorg.pcap4j.af.inet=2", "-Dorg.pcap4j.af.inet6=10");
    private static final List<String> CDS = List.of("-XX:SharedArchiveFile=ARCHIVE", "-Xlog:cds=off",
            "-Xlog:cds+dynamic=off");

    @TempDir
    Path dir;
    Path root;
    Path home;
    Path bin;

    @BeforeEach
    void copyBothLaunchers() throws IOException {
        root = Files.createDirectories(dir.resolve("root"));
        Files.copy(Path.of(System.getProperty("siteflow.root", "..")).resolve("siteflow"), root.resolve("siteflow"));
        executable(root.resolve("siteflow"));
        Files.createDirectories(root.resolve("deploy/bin"));
        Files.copy(DeployFiles.path("bin/jvm-options.sh"), root.resolve("deploy/bin/jvm-options.sh"));
        Files.createDirectories(root.resolve("cli/target/lib"));
        Files.createFile(root.resolve("cli/target/siteflow-cli-0.1.0-SNAPSHOT.jar"));
        Files.createFile(root.resolve("cli/target/siteflow-cli-0.1.0-SNAPSHOT-tests.jar")); // for the system tests
        Files.createDirectories(root.resolve(".siteflow"));
        Files.createFile(root.resolve(".siteflow/built")); // built: no Maven run

        home = Files.createDirectories(dir.resolve("home"));
        Files.createDirectories(home.resolve("bin"));
        Files.createDirectories(home.resolve("lib"));
        for (String f : List.of("bin/siteflow", "bin/jvm-options.sh")) {
            Files.copy(DeployFiles.path(f), home.resolve(f));
        }
        executable(home.resolve("bin/siteflow"));

        bin = Files.createDirectories(dir.resolve("fake"));
        Files.writeString(bin.resolve("java"), """
                #!/bin/sh
                for a in "$@"; do
                  case $a in -XX:ArchiveClassesAtExit=*) echo archive > "${a#*=}";; esac
                done
                printf '%s\\n' "$*" >> "$JAVA_LOG"
                """);
        executable(bin.resolve("java"));
    }

    @Test
    void bothLaunchersMakeTheArchiveAndStartWithTheSameOptions() throws Exception {
        List<String> dev = run(root.resolve("siteflow"), "rules", "check", "sites.yaml");
        List<String> dist = run(home.resolve("bin/siteflow"), "rules", "check", "sites.yaml");

        assertThat(dev).hasSize(2); // the training run, then the command
        assertThat(dist).hasSize(2);
        assertThat(jvmOptions(dev.get(0))).isEqualTo(jvmOptions(dist.get(0))).isEqualTo(concat(COMMON,
                List.of("-XX:ArchiveClassesAtExit=ARCHIVE", "-Xlog:cds=off", "-Xlog:cds+dynamic=off")));
        assertThat(dev.get(0)).endsWith(" io.siteflow.cli.SiteflowCommand capture -r " + root
                + "/.siteflow/cds-training.pcap --json --agent cds");
        assertThat(jvmOptions(dev.get(1))).isEqualTo(jvmOptions(dist.get(1))).isEqualTo(concat(COMMON, CDS));
        assertThat(dev.get(1)).contains("-XX:SharedArchiveFile=" + root + "/.siteflow/cds.jsa ")
                .endsWith(" -cp " + root + "/cli/target/siteflow-cli-0.1.0-SNAPSHOT.jar:" + root + "/cli/target/lib/*"
                        + " io.siteflow.cli.SiteflowCommand rules check sites.yaml");
        assertThat(dist.get(1)).contains("-XX:SharedArchiveFile=" + home + "/cds/cds.jsa ",
                        "-Dlogback.configurationFile=" + home + "/conf/logback.xml", "-Dsiteflow.home=" + home)
                .endsWith(" io.siteflow.cli.SiteflowCommand rules check sites.yaml");
    }

    @Test
    void anArchiveMadeOnceIsMappedWithoutAnotherTrainingRun() throws Exception {
        run(home.resolve("bin/siteflow"), "--version");
        run(root.resolve("siteflow"), "--version");

        assertThat(run(home.resolve("bin/siteflow"), "--version")).hasSize(1)
                .allSatisfy(l -> assertThat(jvmOptions(l)).isEqualTo(concat(COMMON, CDS)));
        assertThat(run(root.resolve("siteflow"), "--version")).hasSize(1)
                .allSatisfy(l -> assertThat(jvmOptions(l)).isEqualTo(concat(COMMON, CDS)));
    }

    @Test
    void bothRunAShortFileReadWithC1Only() throws Exception {
        List<String> dev = run(root.resolve("siteflow"), "capture", "-r", "f.pcap", "--json");
        List<String> dist = run(home.resolve("bin/siteflow"), "capture", "-r", "f.pcap", "--json");

        List<String> expected = concat(concat(COMMON, List.of("-XX:TieredStopAtLevel=1")), CDS);
        assertThat(jvmOptions(dev.get(dev.size() - 1))).isEqualTo(expected);
        assertThat(jvmOptions(dist.get(dist.size() - 1))).isEqualTo(expected);
    }

    @Test
    void siteflowNoCdsTurnsTheArchiveOffInBoth() throws Exception {
        List<String> dev = run(root.resolve("siteflow"), "--version", "SITEFLOW_NO_CDS=1");
        List<String> dist = run(home.resolve("bin/siteflow"), "--version", "SITEFLOW_NO_CDS=1");

        assertThat(dev).hasSize(1).allSatisfy(l -> assertThat(jvmOptions(l)).isEqualTo(COMMON));
        assertThat(dist).hasSize(1).allSatisfy(l -> assertThat(jvmOptions(l)).isEqualTo(COMMON));
    }

    /** Runs a launcher with the stand-in java; arguments of the form NAME=VALUE become the environment. */
    private List<String> run(Path launcher, String... args) throws Exception {
        Path log = dir.resolve("java-" + System.nanoTime() + ".log");
        List<String> cmd = new ArrayList<>(List.of(launcher.toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(dir.resolve("out.txt").toFile());
        for (String a : args) {
            if (a.matches("[A-Z_]+=.*")) {
                pb.environment().put(a.substring(0, a.indexOf('=')), a.substring(a.indexOf('=') + 1));
            } else {
                cmd.add(a);
            }
        }
        pb.command(cmd);
        pb.environment().remove("JAVA_HOME");
        pb.environment().remove("JAVA_OPTS");
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        pb.environment().put("JAVA_LOG", log.toString());
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String out = Files.readString(dir.resolve("out.txt"), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(out).isZero();
        return Files.readAllLines(log);
    }

    /**
     * The JVM options of a logged command line: the words before {@code -cp}, without the distribution's own
     * logging configuration and home, archive paths as {@code ARCHIVE}.
     */
    private static List<String> jvmOptions(String line) {
        List<String> words = Arrays.asList(line.split(" "));
        return words.subList(0, words.indexOf("-cp")).stream()
                .filter(w -> !w.startsWith("-Dlogback.configurationFile=") && !w.startsWith("-Dsiteflow.home="))
                .map(w -> w.replaceFirst("^(-XX:SharedArchiveFile|-XX:ArchiveClassesAtExit)=.*", "$1=ARCHIVE"))
                .toList();
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    private static void executable(Path file) throws IOException {
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
