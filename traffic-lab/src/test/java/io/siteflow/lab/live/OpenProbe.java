package io.siteflow.lab.live;

import io.siteflow.agent.capture.CaptureFailure;
import io.siteflow.agent.capture.live.LiveCapture;

/**
 * Opens a live capture on the interface named in {@code args[0]} and prints {@code opened} or the
 * failure's message on standard output. Started by {@code LiveCaptureIT} in a child JVM with fewer
 * capabilities.
 */
public final class OpenProbe {
    private OpenProbe() {
    }

    public static void main(String[] args) {
        try (LiveCapture c = LiveCapture.builder(args[0]).build()) {
            System.out.println("opened " + c.name());
        } catch (CaptureFailure e) {
            System.out.println(e.getMessage());
        }
    }
}
