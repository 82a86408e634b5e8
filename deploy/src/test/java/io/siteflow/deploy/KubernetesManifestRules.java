package io.siteflow.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.siteflow.kafka.topics.SiteflowTopics;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.ParseResult;

/**
 * The rules every set of siteflow's Kubernetes resources keeps, whether the base's files or what an overlay builds:
 * every resource parses with the Kubernetes model, and the pieces refer to each other right. A subclass names the
 * resources and the agent's backend with its capabilities.
 */
abstract class KubernetesManifestRules {
    static final String HEADLESS = "siteflow-processor-headless";

    /** The resources under test. */
    abstract Manifests manifests();

    /** The capabilities the agent container adds (everything else is dropped). */
    abstract List<String> agentCapabilities();

    /** The agent's {@code --backend}, named in its arguments (the command's default, auto, would probe). */
    abstract String agentBackend();

    static Container only(List<Container> containers) {
        assertThat(containers).hasSize(1);
        return containers.get(0);
    }

    @Test
    void noManifestHasAFieldTheKubernetesModelDoesNotKnow() {
        List<String> unknown = manifests().all().stream().flatMap(r -> UnknownFields.of(r).stream()
                .map(f -> r.getKind() + "/" + r.getMetadata().getName() + ": " + f)).toList();

        assertThat(unknown).isEmpty();
    }

    @Test
    void everySiteflowResourceLivesInTheNamespaceTheFirstFileCreates() {
        assertThat(manifests().one(Namespace.class, "siteflow")).isNotNull();
        List<HasMetadata> namespaced = manifests().all().stream().filter(r -> !(r instanceof Namespace))
                .filter(r -> !r.getKind().equals("KafkaTopic")).toList();
        assertThat(namespaced).isNotEmpty().allSatisfy(r -> assertThat(r.getMetadata().getNamespace())
                .as(r.getKind() + "/" + r.getMetadata().getName()).isEqualTo("siteflow"));
    }

    @Test
    void sitesConfigMapHoldsTheSampleSiteModelVerbatim() {
        ConfigMap sites = manifests().one(ConfigMap.class, "siteflow-sites");

        assertThat(sites.getData()).containsOnlyKeys("sites.yaml");
        assertThat(sites.getData().get("sites.yaml")).isEqualTo(DeployFiles.read("conf/sites.yaml"));
    }

    @Test
    void kafkaTopicsAreSiteflowsTopicsWithTheirConfigsOnTheStrimziClusterOfTheBootstrap() {
        String bootstrap = manifests().one(ConfigMap.class, "siteflow-env").getData().get("BOOTSTRAP");
        assertThat(bootstrap).isEqualTo("my-cluster-kafka-bootstrap.kafka:9092");
        List<GenericKubernetesResource> topics = manifests().all().stream()
                .filter(r -> r.getKind().equals("KafkaTopic")).map(GenericKubernetesResource.class::cast).toList();

        assertThat(topics).allSatisfy(t -> {
            assertThat(t.getApiVersion()).isEqualTo("kafka.strimzi.io/v1beta2");
            assertThat(t.getMetadata().getNamespace()).isEqualTo("kafka");
            assertThat(t.getMetadata().getLabels()).containsEntry("strimzi.io/cluster", "my-cluster");
        });
        // in any order: kubectl kustomize sorts resources of one kind by name
        assertThat(topics.stream().map(t -> (String) t.get("spec", "topicName")))
                .containsExactlyInAnyOrderElementsOf(SiteflowTopics.SINGLE_NODE.names());
        for (SiteflowTopics.Topic expected : SiteflowTopics.SINGLE_NODE.topics()) {
            GenericKubernetesResource t = topics.stream()
                    .filter(x -> expected.name().equals(x.get("spec", "topicName"))).findFirst().orElseThrow();
            Map<String, Object> config = t.get("spec", "config");
            assertThat(config).as(expected.name()).containsAllEntriesOf(expected.configs());
        }
        assertThat(topics.stream().filter(t -> "siteflow.sites".equals(t.get("spec", "topicName")))
                .map(t -> (Integer) t.get("spec", "partitions"))).containsExactly(1);
    }

    @Test
    void agentDaemonSetCapturesOnTheHostNetworkWithItsBackendsCapabilitiesOnly() {
        DaemonSet ds = manifests().one(DaemonSet.class, "siteflow-agent");
        var pod = ds.getSpec().getTemplate().getSpec();
        Container agent = only(pod.getContainers());

        assertThat(pod.getHostNetwork()).isTrue();
        assertThat(pod.getDnsPolicy()).isEqualTo("ClusterFirstWithHostNet");
        assertThat(agent.getSecurityContext().getCapabilities().getAdd())
                .containsExactlyInAnyOrderElementsOf(agentCapabilities());
        assertThat(agent.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(agent.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        assertThat(agent.getSecurityContext().getPrivileged()).isNotEqualTo(Boolean.TRUE);
        assertThat(ds.getSpec().getSelector().getMatchLabels())
                .isEqualTo(Map.of("app.kubernetes.io/name", "siteflow-agent"));
        assertThat(ds.getSpec().getTemplate().getMetadata().getLabels())
                .containsAllEntriesOf(ds.getSpec().getSelector().getMatchLabels());
    }

    @Test
    void agentArgumentsWithTheConfigMapAreACaptureSiteflowAccepts() {
        Container agent = only(manifests().one(DaemonSet.class, "siteflow-agent").getSpec().getTemplate().getSpec()
                .getContainers());
        Map<String, String> env = manifests().environment(agent.getEnv(), Map.of("spec.nodeName", "node-1",
                "status.podIP", "127.0.0.2"));
        List<String> args = Manifests.expand(agent.getArgs(), env);

        ParseResult capture = SiteflowCli.parseSubcommand(args);

        assertThat(agent.getCommand()).containsExactly("/opt/siteflow/bin/siteflow");
        assertThat(capture.commandSpec().name()).isEqualTo("capture");
        assertThat((String) capture.matchedOptionValue("--backend", null)).isEqualTo(agentBackend());
        assertThat((String) capture.matchedOptionValue("-i", null)).isEqualTo("eth0");
        assertThat(capture.matchedOption("-F").<List<String>>getValue()).containsExactly("10.1.0.0/16");
        assertThat((String) capture.matchedOptionValue("--bootstrap", null))
                .isEqualTo("my-cluster-kafka-bootstrap.kafka:9092");
        assertThat((String) capture.matchedOptionValue("--agent", null)).isEqualTo("node-1");
        Path spool = capture.matchedOptionValue("--spool-dir", Path.of(""));
        assertThat(agent.getVolumeMounts().stream().map(VolumeMount::getMountPath)).contains(spool.toString());
        // metrics on the node's address, on the port the PodMonitor scrapes
        assertThat((String) capture.matchedOptionValue("--metrics-bind", null)).isEqualTo("127.0.0.2");
        int port = capture.matchedOptionValue("--metrics-port", 0);
        assertThat(agent.getPorts()).extracting(p -> p.getName() + ":" + p.getContainerPort())
                .containsExactly("metrics:" + port);
        GenericKubernetesResource monitor = manifests().all().stream()
                .filter(r -> r.getKind().equals("PodMonitor")).map(GenericKubernetesResource.class::cast)
                .findFirst().orElseThrow();
        List<Map<String, Object>> endpoints = monitor.get("spec", "podMetricsEndpoints");
        assertThat(endpoints).extracting(e -> e.get("port") + " " + e.get("path")).containsExactly("metrics /metrics");
        Map<String, String> selector = monitor.get("spec", "selector", "matchLabels");
        assertThat(manifests().one(DaemonSet.class, "siteflow-agent").getSpec().getTemplate().getMetadata().getLabels())
                .containsAllEntriesOf(selector);
    }

    @Test
    void processorAdvertisesItsNameUnderTheHeadlessService() {
        StatefulSet sts = manifests().one(StatefulSet.class, "siteflow-processor");
        Service headless = manifests().one(Service.class, HEADLESS);
        Container processor = only(sts.getSpec().getTemplate().getSpec().getContainers());
        List<String> args = processor.getArgs();

        assertThat(sts.getSpec().getServiceName()).isEqualTo(HEADLESS);
        assertThat(headless.getSpec().getClusterIP()).isEqualTo("None");
        assertThat(args.get(args.indexOf("--advertised-host") + 1))
                .isEqualTo("$(POD_NAME)." + HEADLESS + ".$(POD_NAMESPACE).svc.cluster.local");
        Map<String, String> env = manifests().environment(processor.getEnv(),
                Map.of("metadata.name", "siteflow-processor-0", "metadata.namespace", "siteflow"));
        assertThat(Manifests.expand(args, env)).contains(
                "siteflow-processor-0.siteflow-processor-headless.siteflow.svc.cluster.local");
    }

    @Test
    void processorIsReadyOnHealthAndKeepsStateOnItsOwnVolume() {
        StatefulSet sts = manifests().one(StatefulSet.class, "siteflow-processor");
        Container processor = only(sts.getSpec().getTemplate().getSpec().getContainers());
        List<String> args = processor.getArgs();
        String stateDir = args.get(args.indexOf("--state-dir") + 1);
        String sites = args.get(args.indexOf("--sites") + 1);

        assertThat(processor.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/health");
        assertThat(processor.getReadinessProbe().getHttpGet().getPort().getStrVal()).isEqualTo("http");
        assertThat(processor.getPorts()).singleElement().satisfies(p -> {
            assertThat(p.getName()).isEqualTo("http");
            assertThat(p.getContainerPort()).isEqualTo(Integer.parseInt(args.get(args.indexOf("--http-port") + 1)));
        });
        assertThat(args.get(args.indexOf("--http-bind") + 1)).isEqualTo("0.0.0.0");
        assertThat(sts.getSpec().getVolumeClaimTemplates()).singleElement()
                .satisfies(c -> assertThat(c.getMetadata().getName()).isEqualTo("state"));
        assertThat(processor.getVolumeMounts()).anySatisfy(m -> {
            assertThat(m.getName()).isEqualTo("state");
            assertThat(m.getMountPath()).isEqualTo(stateDir);
        });
        assertThat(processor.getVolumeMounts()).anySatisfy(m -> {
            assertThat(m.getName()).isEqualTo("sites");
            assertThat(m.getMountPath() + "/sites.yaml").isEqualTo(sites);
        });
        assertThat(sts.getSpec().getTemplate().getSpec().getVolumes()).anySatisfy(v -> {
            assertThat(v.getName()).isEqualTo("sites");
            assertThat(v.getConfigMap().getName()).isEqualTo("siteflow-sites");
        });
    }

    @Test
    void bothProcessorServicesSelectTheProcessorPodsOnTheirHttpPort() {
        StatefulSet sts = manifests().one(StatefulSet.class, "siteflow-processor");
        Map<String, String> podLabels = sts.getSpec().getTemplate().getMetadata().getLabels();

        for (String name : List.of(HEADLESS, "siteflow-processor")) {
            Service s = manifests().one(Service.class, name);
            assertThat(podLabels).as(name).containsAllEntriesOf(s.getSpec().getSelector());
            assertThat(s.getSpec().getPorts()).singleElement().satisfies(p -> {
                assertThat(p.getName()).isEqualTo("http");
                assertThat(p.getTargetPort().getStrVal()).isEqualTo("http");
            });
        }
        assertThat(podLabels).containsAllEntriesOf(sts.getSpec().getSelector().getMatchLabels());
    }

    @Test
    void serviceMonitorScrapesEachProcessorOnceThroughTheHeadlessService() {
        GenericKubernetesResource sm = manifests().all().stream().filter(r -> r.getKind().equals("ServiceMonitor"))
                .map(GenericKubernetesResource.class::cast).findFirst().orElseThrow();
        Map<String, String> selector = sm.get("spec", "selector", "matchLabels");
        List<Map<String, Object>> endpoints = sm.get("spec", "endpoints");

        assertThat(manifests().one(Service.class, HEADLESS).getMetadata().getLabels()).containsAllEntriesOf(selector);
        assertThat(manifests().one(Service.class, "siteflow-processor").getMetadata().getLabels())
                .doesNotContainEntry("siteflow.io/metrics", "true");
        assertThat(endpoints).singleElement().satisfies(e -> {
            assertThat(e).containsEntry("port", "http");
            assertThat(e).containsEntry("path", "/metrics");
        });
    }

    @Test
    void processorArgumentsWithTheConfigMapAreAProcessSiteflowAccepts() {
        Assumptions.assumeTrue(SiteflowCli.commands().contains("process"),
                "this build of siteflow has no process command yet: " + SiteflowCli.commands());
        Container processor = only(manifests().one(StatefulSet.class, "siteflow-processor").getSpec().getTemplate()
                .getSpec().getContainers());
        Map<String, String> env = manifests().environment(processor.getEnv(),
                Map.of("metadata.name", "siteflow-processor-0", "metadata.namespace", "siteflow"));

        ParseResult process = SiteflowCli.parseSubcommand(Manifests.expand(processor.getArgs(), env));

        assertThat(process.commandSpec().name()).isEqualTo("process");
    }
}
