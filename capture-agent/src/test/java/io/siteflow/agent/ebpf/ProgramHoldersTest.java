package io.siteflow.agent.ebpf;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which process holds a program, on a /proc tree the test writes (the live kernel: EbpfKernelIT). */
class ProgramHoldersTest {
    @TempDir
    Path proc;

    @Test
    void findsTheProcessWhoseProgramDescriptorNamesTheIdAndNoneForAnUnheldProgram() throws Exception {
        descriptor(100, 3, "socket:[1234]", "pos:\t0\n");
        descriptor(100, 4, "anon_inode:bpf-map", "map_type:\t1\nmap_id:\t42\n");
        descriptor(200, 5, "anon_inode:bpf-prog", "prog_type:\t3\nprog_id:\t420\nrun_cnt:\t0\n");
        descriptor(300, 7, "anon_inode:bpf-prog", "prog_type:\t3\nprog_id:\t42\nrun_cnt:\t0\n");
        Files.createDirectories(proc.resolve("self"));

        assertThat(ProgramHolders.holder(proc, 42)).as("a map of id 42 and program 420 are not program 42")
                .isEqualTo(OptionalLong.of(300));
        assertThat(ProgramHolders.holder(proc, 420)).isEqualTo(OptionalLong.of(200));
        assertThat(ProgramHolders.holder(proc, 7)).as("held by no process: a killed agent's").isEmpty();
        assertThat(ProgramHolders.holder(proc.resolve("absent"), 42)).isEmpty();
    }

    private void descriptor(int pid, int fd, String target, String fdinfo) throws Exception {
        Path fds = Files.createDirectories(proc.resolve(Integer.toString(pid)).resolve("fd"));
        Path infos = Files.createDirectories(proc.resolve(Integer.toString(pid)).resolve("fdinfo"));
        Files.createSymbolicLink(fds.resolve(Integer.toString(fd)), Path.of(target));
        Files.writeString(infos.resolve(Integer.toString(fd)), fdinfo);
    }
}
