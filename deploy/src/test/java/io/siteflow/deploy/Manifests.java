package io.siteflow.deploy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesList;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes resources read with fabric8's model (a typo in a field name fails): the files of the Kustomize base
 * (deploy/k8s/base), or what {@code kubectl kustomize} builds from an overlay (deploy/k8s/overlays/NAME).
 */
final class Manifests {
    private static final Pattern REFERENCE = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");
    /** What kubectl may say on standard error about the overlays: deprecations, nothing else. */
    private static final Pattern KUSTOMIZE_WARNING = Pattern.compile(
            "# Warning: '(bases|patchesJson6902)' is deprecated\\. Please use '(resources|patches)' instead\\. "
                    + "Run 'kustomize edit fix' to update your Kustomization automatically\\.");

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
    private static final Map<String, Manifests> CACHE = new ConcurrentHashMap<>();

    private final String source;
    private final List<HasMetadata> resources;

    private Manifests(String source, List<HasMetadata> resources) {
        this.source = source;
        this.resources = List.copyOf(resources);
    }

    /** The base's files, each read once per test run, files in name (apply) order. */
    static Manifests base() {
        return CACHE.computeIfAbsent("base", k -> new Manifests("k8s/base", baseFiles().stream()
                .flatMap(f -> read(f).stream()).toList()));
    }

    /** The resource files of the base: every .yaml but its kustomization.yaml, sorted by name. */
    static List<Path> baseFiles() {
        return DeployFiles.list("k8s/base", ".yaml").stream()
                .filter(p -> !p.getFileName().toString().equals("kustomization.yaml")).toList();
    }

    /** What {@code kubectl kustomize deploy/k8s/overlays/NAME} prints, built once per test run. */
    static Manifests overlay(String name) {
        return CACHE.computeIfAbsent(name, k -> new Manifests("k8s/overlays/" + name, parse(kustomize(name))));
    }

    /** {@code kubectl kustomize} of an overlay: its standard output; exit 0 and no message but a deprecation. */
    static String kustomize(String overlay) {
        if (!Processes.onPath("kubectl")) {
            throw new AssertionError("kubectl not on PATH: the Kustomize overlays are built with `kubectl kustomize`"
                    + " (Debian package kubernetes-client; ./siteflow test installs it)");
        }
        Path dir = DeployFiles.path("k8s/overlays/" + overlay);
        try {
            Path out = Files.createTempFile("kustomize", ".yaml");
            Path err = Files.createTempFile("kustomize", ".err");
            try {
                Process p = new ProcessBuilder("kubectl", "kustomize", dir.toString())
                        .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
                if (!p.waitFor(120, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor();
                    throw new AssertionError("kubectl kustomize " + dir + " did not end within 120 s");
                }
                String stderr = Files.readString(err, StandardCharsets.UTF_8);
                if (p.exitValue() != 0) {
                    throw new AssertionError("kubectl kustomize " + dir + " exited " + p.exitValue() + ":\n" + stderr);
                }
                List<String> other = stderr.lines().filter(l -> !l.isBlank())
                        .filter(l -> !KUSTOMIZE_WARNING.matcher(l).matches()).toList();
                if (!other.isEmpty()) {
                    throw new AssertionError("kubectl kustomize " + dir + " said:\n" + String.join("\n", other));
                }
                return Files.readString(out, StandardCharsets.UTF_8);
            } finally {
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** The resources of one file, in document order. */
    static List<HasMetadata> read(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return parse(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The resources of a YAML stream of one or more documents, in document order. */
    static List<HasMetadata> parse(String yaml) {
        return parse(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)));
    }

    private static List<HasMetadata> parse(InputStream in) {
        Object o = SERIALIZATION.unmarshal(in);
        List<HasMetadata> out = new ArrayList<>();
        if (o instanceof KubernetesList list) {
            out.addAll(list.getItems());
        } else if (o instanceof List<?> list) {
            list.forEach(x -> out.add((HasMetadata) x));
        } else {
            out.add((HasMetadata) o);
        }
        return out;
    }

    /** Where the resources come from: {@code k8s/base} or {@code k8s/overlays/NAME}. */
    String source() {
        return source;
    }

    /** Every resource, in file (base) or kubectl's (overlay) order. */
    List<HasMetadata> all() {
        return resources;
    }

    <T extends HasMetadata> T one(Class<T> type, String name) {
        List<T> found = all().stream().filter(type::isInstance).map(type::cast)
                .filter(r -> r.getMetadata().getName().equals(name)).toList();
        if (found.size() != 1) {
            throw new AssertionError(source + ": " + found.size() + " " + type.getSimpleName() + " named " + name);
        }
        return found.get(0);
    }

    /**
     * A container's environment as Kubernetes would set it: literal values, ConfigMap keys (which must
     * exist) and, for field references, {@code fieldValues} (e.g. {@code spec.nodeName -> node-1}).
     */
    Map<String, String> environment(List<EnvVar> env, Map<String, String> fieldValues) {
        Map<String, String> out = new LinkedHashMap<>();
        for (EnvVar v : env) {
            if (v.getValue() != null) {
                out.put(v.getName(), v.getValue());
            } else if (v.getValueFrom().getConfigMapKeyRef() != null) {
                var ref = v.getValueFrom().getConfigMapKeyRef();
                String value = one(ConfigMap.class, ref.getName()).getData().get(ref.getKey());
                if (value == null) {
                    throw new AssertionError(v.getName() + ": ConfigMap " + ref.getName() + " has no key " + ref.getKey());
                }
                out.put(v.getName(), value);
            } else if (v.getValueFrom().getFieldRef() != null) {
                String path = v.getValueFrom().getFieldRef().getFieldPath();
                if (!fieldValues.containsKey(path)) {
                    throw new AssertionError(v.getName() + ": no sample value for field " + path);
                }
                out.put(v.getName(), fieldValues.get(path));
            } else {
                throw new AssertionError(v.getName() + ": unsupported valueFrom " + v.getValueFrom());
            }
        }
        return out;
    }

    /** {@code $(NAME)} references replaced as the kubelet does; an unknown name is an error here. */
    static List<String> expand(List<String> args, Map<String, String> env) {
        List<String> out = new ArrayList<>();
        for (String arg : args) {
            Matcher m = REFERENCE.matcher(arg);
            StringBuilder sb = new StringBuilder();
            while (m.find()) {
                String value = env.get(m.group(1));
                if (value == null) {
                    throw new AssertionError("argument " + arg + " refers to $(" + m.group(1) + "), which is not set");
                }
                m.appendReplacement(sb, Matcher.quoteReplacement(value));
            }
            m.appendTail(sb);
            out.add(sb.toString());
        }
        return out;
    }
}
