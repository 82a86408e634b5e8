package io.siteflow.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Paths of the deploy module's files, from system property {@code siteflow.deploy} (Surefire sets it). */
final class DeployFiles {
    private DeployFiles() {
    }

    /** The deploy module's directory; the working directory when the property is absent (IDE runs). */
    static Path dir() {
        return Path.of(System.getProperty("siteflow.deploy", ".")).toAbsolutePath().normalize();
    }

    static Path path(String relative) {
        return dir().resolve(relative);
    }

    static String read(String relative) {
        try {
            return Files.readString(path(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The regular files of a sub-directory whose names end in {@code suffix}, sorted by name. */
    static List<Path> list(String relativeDir, String suffix) {
        try (Stream<Path> s = Files.list(path(relativeDir))) {
            return s.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
