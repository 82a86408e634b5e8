package io.siteflow.systemtest.image;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The image every image test uses, built once per test JVM by {@code ./siteflow image --tag localhost/siteflow:it}
 * as a user builds it: the Debian base made with debootstrap when podman does not hold it yet (reused when it does),
 * then the image from deploy/image/Containerfile. Prints how long that took.
 */
final class SiteflowImage {
    /** The tag the tests build and run (never the user's {@code localhost/siteflow:latest}). */
    static final String TAG = "localhost/siteflow:it";

    private static String built;

    private SiteflowImage() {
    }

    /** {@link #TAG}, built on the first call; a failed build fails every caller with the launcher's output. */
    static synchronized String get() {
        if (built == null) {
            long start = System.nanoTime();
            Path root = Podman.root();
            Podman.Result r = Podman.run(List.of(root.resolve("siteflow").toString(), "image", "--tag", TAG), root,
                    Map.of(), 1_200);
            Podman.restoreIpForward();
            r.orThrow(List.of("./siteflow", "image", "--tag", TAG));
            System.err.println("SiteflowImage: " + TAG + " ready in "
                    + Duration.ofNanos(System.nanoTime() - start).toSeconds() + " s\n" + r.err());
            built = TAG;
        }
        return built;
    }
}
