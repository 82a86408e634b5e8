package io.siteflow.model;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Golden fixtures: test resources beside the test that reads them, named after the scenario. */
public final class Fixtures {
    private Fixtures() {
    }

    /**
     * The UTF-8 text of the resource {@code name} in {@code test}'s package, without its final line break.
     *
     * @throws IllegalArgumentException when there is no such resource
     */
    public static String text(Class<?> test, String name) {
        try (InputStream in = test.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + name + " beside " + test.getName());
            }
            String s = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return s.endsWith("\n") ? s.substring(0, s.length() - 1) : s;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
