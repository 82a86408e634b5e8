package io.siteflow.agent.ebpf;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * Which process holds a BPF program open, told from {@code /proc/PID/fd} (a link to {@code anon_inode:bpf-prog}) and
 * {@code /proc/PID/fdinfo/FD} ({@code prog_id:}). A running agent holds its program's descriptor for as long as the
 * program is attached; a killed agent's program is held by its TC filter alone. So a siteflow program at siteflow's
 * handle that no process holds is stale and may be removed, and one that a process holds belongs to a live agent and
 * must be left alone. Processes whose descriptors this one may not read (another user's, without CAP_SYS_PTRACE) are
 * skipped: an agent runs as one user, so another agent of the same user is always seen. Static; thread-safe.
 */
final class ProgramHolders {
    private static final Path PROC = Path.of("/proc");
    private static final Pattern PID = Pattern.compile("\\d+");
    private static final String BPF_PROG = "anon_inode:bpf-prog";

    private ProgramHolders() {
    }

    /** The pid of a process holding program {@code progId} open, if any is seen. */
    static OptionalLong holder(int progId) {
        return holder(PROC, progId);
    }

    /** As {@link #holder(int)}, under {@code proc} (a test's tree). */
    static OptionalLong holder(Path proc, int progId) {
        String line = "prog_id:\t" + progId;
        try (DirectoryStream<Path> pids = Files.newDirectoryStream(proc, p -> PID.matcher(
                p.getFileName().toString()).matches())) {
            for (Path pid : pids) {
                if (holds(pid, line)) {
                    return OptionalLong.of(Long.parseLong(pid.getFileName().toString()));
                }
            }
        } catch (IOException e) {
            return OptionalLong.empty();
        }
        return OptionalLong.empty();
    }

    private static boolean holds(Path pid, String line) {
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(pid.resolve("fd"))) {
            for (Path fd : fds) {
                if (isProgram(fd) && fdinfoHas(pid.resolve("fdinfo").resolve(fd.getFileName()), line)) {
                    return true;
                }
            }
        } catch (IOException | SecurityException e) {
            return false; // gone, or not ours to read
        }
        return false;
    }

    private static boolean isProgram(Path fd) {
        try {
            return BPF_PROG.equals(Files.readSymbolicLink(fd).toString());
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean fdinfoHas(Path fdinfo, String line) {
        try {
            return Files.readAllLines(fdinfo).contains(line);
        } catch (IOException e) {
            return false;
        }
    }
}
