package io.siteflow.deploy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Fields of a manifest that fabric8's model does not know: the model keeps them in
 * {@code additionalProperties} instead of failing, so a misspelt field ({@code hostNetwrok}) is only
 * found by looking there, recursively through the typed model.
 */
final class UnknownFields {
    private static final String MODEL = "io.fabric8.kubernetes.api.model";

    private UnknownFields() {
    }

    /** Paths like {@code spec.template.spec.hostNetwrok}, empty when every field is known. */
    static List<String> of(Object resource) {
        List<String> out = new ArrayList<>();
        visit(resource, "", out);
        return out;
    }

    private static void visit(Object o, String path, List<String> out) {
        if (o == null || o instanceof GenericKubernetesResource) {
            return;
        }
        if (o instanceof Collection<?> c) {
            int i = 0;
            for (Object x : c) {
                visit(x, path + "[" + i++ + "]", out);
            }
            return;
        }
        if (o instanceof Map<?, ?> m) {
            m.forEach((k, v) -> visit(v, path + "." + k, out));
            return;
        }
        if (!o.getClass().getName().startsWith(MODEL)) {
            return;
        }
        for (Method getter : o.getClass().getMethods()) {
            if (getter.getParameterCount() != 0 || Modifier.isStatic(getter.getModifiers())
                    || !getter.getName().startsWith("get") || getter.getName().equals("getClass")) {
                continue;
            }
            Object value = invoke(getter, o);
            if (getter.getName().equals("getAdditionalProperties")) {
                if (value instanceof Map<?, ?> extra) {
                    extra.keySet().forEach(k -> out.add(path.isEmpty() ? k.toString() : path + "." + k));
                }
            } else {
                String field = Character.toLowerCase(getter.getName().charAt(3)) + getter.getName().substring(4);
                visit(value, path.isEmpty() ? field : path + "." + field, out);
            }
        }
    }

    private static Object invoke(Method getter, Object o) {
        try {
            return getter.invoke(o);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new AssertionError(getter + ": " + e, e);
        }
    }
}
