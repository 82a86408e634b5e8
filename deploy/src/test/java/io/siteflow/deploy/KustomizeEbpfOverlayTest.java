package io.siteflow.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.DaemonSetBuilder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * deploy/k8s/overlays/ebpf as {@code kubectl kustomize} builds it (the kubectl on PATH; no cluster): the rules of
 * {@link KubernetesManifestRules} with the in-kernel agent, and nothing else changed from the base.
 */
class KustomizeEbpfOverlayTest extends KubernetesManifestRules {
    @Override
    Manifests manifests() {
        return Manifests.overlay("ebpf");
    }

    @Override
    List<String> agentCapabilities() {
        return List.of("BPF", "PERFMON", "NET_ADMIN");
    }

    @Override
    String agentBackend() {
        return "ebpf";
    }

    @Test
    void differsFromTheBaseOnlyInTheAgentsBackendArgumentsAndCapabilities() {
        DaemonSet ebpf = manifests().one(DaemonSet.class, "siteflow-agent");
        Container agent = only(ebpf.getSpec().getTemplate().getSpec().getContainers());
        List<String> args = agent.getArgs();

        assertThat(args.subList(0, 3)).containsExactly("capture", "--backend", "ebpf");
        // the base's DaemonSet (which names --backend pcap), once the two changes are undone
        List<String> baseArgs = new ArrayList<>(args);
        baseArgs.set(2, "pcap");
        DaemonSet undone = new DaemonSetBuilder(ebpf).editSpec().editTemplate().editSpec().editFirstContainer()
                .withArgs(baseArgs).editSecurityContext().editCapabilities().withAdd("NET_RAW", "NET_ADMIN")
                .endCapabilities().endSecurityContext().endContainer().endSpec().endTemplate().endSpec().build();
        assertThat(undone).isEqualTo(Manifests.base().one(DaemonSet.class, "siteflow-agent"));
        List<HasMetadata> others = manifests().all().stream().filter(r -> !(r instanceof DaemonSet)).toList();
        List<HasMetadata> baseOthers = Manifests.base().all().stream().filter(r -> !(r instanceof DaemonSet)).toList();
        assertThat(KustomizePcapOverlayTest.sorted(others)).isEqualTo(KustomizePcapOverlayTest.sorted(baseOthers));
    }
}
