package io.siteflow.lab;

import java.io.IOException;
import java.util.Optional;

/**
 * What the lab needs from the machine before it can build namespaces: root, and {@code ip netns} (iproute2 with
 * network-namespace support). Tests skip with the reason on a developer's machine and fail under CI, where a skipped
 * lab test would pass a build that tested nothing (as {@code Browser.assumeInstalled} does for Chromium).
 */
public final class LabPrerequisites {
    private LabPrerequisites() {
    }

    /** Why the lab cannot run here, empty when it can. */
    public static Optional<String> missing() {
        if (!isRoot()) {
            return Optional.of("the network-namespace lab needs root (running as " + System.getProperty("user.name")
                    + ")");
        }
        try {
            Shell.run("ip", "netns", "list");
        } catch (IOException e) {
            return Optional.of("the network-namespace lab needs `ip netns`: " + e.getMessage());
        }
        return Optional.empty();
    }

    private static boolean isRoot() {
        try {
            return Shell.run("id", "-u").strip().equals("0");
        } catch (IOException e) {
            return false;
        }
    }
}
