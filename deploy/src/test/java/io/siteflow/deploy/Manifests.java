package io.siteflow.deploy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesList;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The Kubernetes manifests of deploy/k8s, read with fabric8's model (a typo in a field name fails). */
final class Manifests {
    private static final Pattern REFERENCE = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");

    private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

    private Manifests() {
    }

    /** Every file read once per test run. */
    private static final class All {
        static final List<HasMetadata> RESOURCES = List.copyOf(DeployFiles.list("k8s", ".yaml").stream()
                .flatMap(f -> read(f).stream()).toList());
    }

    /** The resources of one file, in document order. */
    static List<HasMetadata> read(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
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
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every resource of every file of deploy/k8s, files in name (apply) order. */
    static List<HasMetadata> all() {
        return All.RESOURCES;
    }

    static <T extends HasMetadata> T one(Class<T> type, String name) {
        List<T> found = all().stream().filter(type::isInstance).map(type::cast)
                .filter(r -> r.getMetadata().getName().equals(name)).toList();
        if (found.size() != 1) {
            throw new AssertionError(found.size() + " " + type.getSimpleName() + " named " + name);
        }
        return found.get(0);
    }

    /**
     * A container's environment as Kubernetes would set it: literal values, ConfigMap keys (which must
     * exist) and, for field references, {@code fieldValues} (e.g. {@code spec.nodeName -> node-1}).
     */
    static Map<String, String> environment(List<EnvVar> env, Map<String, String> fieldValues) {
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
