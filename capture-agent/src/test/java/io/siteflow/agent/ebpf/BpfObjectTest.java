package io.siteflow.agent.ebpf;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The program the jar carries ({@code src/main/resources/bpf/flows.bpf.o}, committed so that running needs no clang)
 * is what its source compiles to: where clang exists, the build's {@code bpf-clang} profile compiles
 * {@code src/main/bpf/flows.bpf.c} into {@code target/bpf}, with the source directory mapped out of the debug info,
 * and the bytes must be the same. A change to the C source without the object rebuilt fails here.
 */
class BpfObjectTest {
    private static final Path FRESH = Path.of("target", "bpf", "flows.bpf.o");

    @Test
    void committedObjectIsTheSameBytesAsAFreshBuildFromSource() throws Exception {
        Assumptions.assumeTrue(Files.exists(Path.of("/usr/bin/clang")), "no /usr/bin/clang: the build did not compile");
        assertThat(FRESH).as("the bpf-clang profile's output").exists();
        byte[] committed;
        try (InputStream in = BpfObjectTest.class.getResourceAsStream("/bpf/flows.bpf.o")) {
            assertThat(in).as("/bpf/flows.bpf.o on the class path").isNotNull();
            committed = in.readAllBytes();
        }
        assertThat(committed).as("src/main/resources/bpf/flows.bpf.o differs from a build of flows.bpf.c: "
                + "cp target/bpf/flows.bpf.o src/main/resources/bpf/").isEqualTo(Files.readAllBytes(FRESH));
    }

    @Test
    void objectIsABpfElfWithTheProgramAndMapsTheLoaderNames() throws Exception {
        byte[] object;
        try (InputStream in = BpfObjectTest.class.getResourceAsStream("/bpf/flows.bpf.o")) {
            object = in.readAllBytes();
        }
        assertThat(new byte[] {object[0], object[1], object[2], object[3]}).containsExactly(0x7F, 'E', 'L', 'F');
        assertThat(object[18] & 0xFF | (object[19] & 0xFF) << 8).as("e_machine EM_BPF").isEqualTo(247);
        String text = new String(object, java.nio.charset.StandardCharsets.ISO_8859_1);
        assertThat(text).contains(FlowProgram.PROGRAM_IN, FlowProgram.PROGRAM_OUT, "flows_a", "flows_b", "handshakes", "remote", "config",
                "counters", "struct flow_key", "struct flow_val", "payloads", "l7state", "struct l7_state",
                "struct payload_hdr");
    }
}
