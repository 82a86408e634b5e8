package io.siteflow.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * deploy/k8s/overlays/pcap as {@code kubectl kustomize} builds it (the kubectl on PATH; no cluster): the rules of
 * {@link KubernetesManifestRules}, and exactly the base's resources.
 */
class KustomizePcapOverlayTest extends KubernetesManifestRules {
    static final Comparator<HasMetadata> BY_KIND_AND_NAME = Comparator.comparing((HasMetadata r) -> r.getKind())
            .thenComparing(r -> r.getMetadata().getName());

    @Override
    Manifests manifests() {
        return Manifests.overlay("pcap");
    }

    @Override
    List<String> agentCapabilities() {
        return List.of("NET_RAW", "NET_ADMIN");
    }

    @Override
    String agentBackend() {
        return "pcap";
    }

    static List<HasMetadata> sorted(List<HasMetadata> resources) {
        return resources.stream().sorted(BY_KIND_AND_NAME).toList();
    }

    @Test
    void buildsExactlyTheResourcesOfTheBase() {
        assertThat(sorted(manifests().all())).isEqualTo(sorted(Manifests.base().all()));
    }
}
