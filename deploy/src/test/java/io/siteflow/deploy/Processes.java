package io.siteflow.deploy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a command to its end with a time limit and returns its exit code and merged output. */
final class Processes {
    private Processes() {
    }

    /** Exit code and standard output + standard error, merged in order. */
    record Result(int exitCode, String output) {
    }

    /** Runs with this JVM's environment plus {@code env}. */
    static Result run(Path workDir, Map<String, String> env, List<String> command, long timeoutSeconds)
            throws IOException, InterruptedException {
        return run(workDir, false, env, command, timeoutSeconds);
    }

    /** Runs with exactly {@code env} as the environment (nothing inherited: no JAVA_HOME, no JAVA_OPTS). */
    static Result runClean(Path workDir, Map<String, String> env, List<String> command, long timeoutSeconds)
            throws IOException, InterruptedException {
        return run(workDir, true, env, command, timeoutSeconds);
    }

    private static Result run(Path workDir, boolean clean, Map<String, String> env, List<String> command,
            long timeoutSeconds) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true);
        if (clean) {
            pb.environment().clear();
        }
        Path out = Files.createTempFile("siteflow-deploy", ".out");
        pb.redirectOutput(out.toFile());
        pb.environment().putAll(env);
        Process p = pb.start();
        try {
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
                throw new AssertionError(command + " did not end within " + timeoutSeconds + " s; output:\n"
                        + Files.readString(out, StandardCharsets.UTF_8));
            }
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** True when {@code name} is an executable on PATH. */
    static boolean onPath(String name) {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String dir : path.split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
                return true;
            }
        }
        return false;
    }
}
