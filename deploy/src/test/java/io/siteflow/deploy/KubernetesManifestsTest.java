package io.siteflow.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * deploy/k8s/base: the files of the Kustomize base, read one by one (the libpcap agent), by the rules of
 * {@link KubernetesManifestRules}; their names and kinds, and the base's kustomization.yaml listing each of them.
 */
class KubernetesManifestsTest extends KubernetesManifestRules {
    @Override
    Manifests manifests() {
        return Manifests.base();
    }

    @Override
    List<String> agentCapabilities() {
        return List.of("NET_RAW", "NET_ADMIN");
    }

    @Override
    String agentBackend() {
        return "pcap";
    }

    @Test
    void filesAreNamedInApplyOrderAndHoldTheExpectedKinds() {
        Map<String, List<String>> kinds = Manifests.baseFiles().stream().collect(Collectors.toMap(
                p -> p.getFileName().toString(),
                p -> Manifests.read(p).stream().map(r -> r.getKind() + "/" + r.getMetadata().getName()).toList(),
                (a, b) -> a, java.util.TreeMap::new));

        assertThat(kinds.keySet()).allMatch(n -> n.matches("[0-9]{2}-[a-z0-9-]+\\.yaml"));
        assertThat(kinds).containsExactly(
                Map.entry("00-namespace.yaml", List.of("Namespace/siteflow")),
                Map.entry("10-configmap-sites.yaml", List.of("ConfigMap/siteflow-sites")),
                Map.entry("11-configmap-env.yaml", List.of("ConfigMap/siteflow-env")),
                Map.entry("15-kafka-topics.yaml", List.of("KafkaTopic/siteflow-flows", "KafkaTopic/siteflow-agents",
                        "KafkaTopic/siteflow-sites", "KafkaTopic/siteflow-verdicts", "KafkaTopic/siteflow-alerts",
                        "KafkaTopic/siteflow-isolation", "KafkaTopic/siteflow-dlq")),
                Map.entry("20-agent-daemonset.yaml", List.of("DaemonSet/siteflow-agent")),
                Map.entry("30-processor-service-headless.yaml", List.of("Service/" + HEADLESS)),
                Map.entry("31-processor-service.yaml", List.of("Service/siteflow-processor")),
                Map.entry("40-processor-statefulset.yaml", List.of("StatefulSet/siteflow-processor")),
                Map.entry("50-servicemonitor.yaml", List.of("ServiceMonitor/siteflow-processor",
                        "PodMonitor/siteflow-agent")));
    }

    @Test
    void unknownFieldsAreFoundWhereverTheyAre() {
        HasMetadata typo = Manifests.read(DeployFiles.path("k8s/base/20-agent-daemonset.yaml")).get(0);
        ((DaemonSet) typo).getSpec().getTemplate().getSpec().getAdditionalProperties().put("hostNetwrok", true);

        assertThat(UnknownFields.of(typo)).containsExactly("spec.template.spec.hostNetwrok");
    }

    @Test
    void theBaseKustomizationListsEveryFileOfTheBaseInApplyOrderAndNothingElse() {
        JsonNode kustomization = Yaml.yaml("k8s/base/kustomization.yaml");
        List<String> keys = new ArrayList<>();
        kustomization.fieldNames().forEachRemaining(keys::add);

        assertThat(keys).containsExactly("apiVersion", "kind", "resources");
        assertThat(kustomization.get("kind").asText()).isEqualTo("Kustomization");
        assertThat(Yaml.strings(kustomization.get("resources")))
                .containsExactlyElementsOf(Manifests.baseFiles().stream().map(p -> p.getFileName().toString()).toList());
    }
}
