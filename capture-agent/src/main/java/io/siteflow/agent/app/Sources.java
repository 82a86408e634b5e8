package io.siteflow.agent.app;

import io.siteflow.agent.capture.CaptureFailure;
import io.siteflow.agent.capture.CaptureFileException;
import io.siteflow.agent.capture.PacketSource;
import io.siteflow.agent.capture.file.CaptureFileReader;
import io.siteflow.agent.config.CaptureOptions;
import io.siteflow.agent.flow.L7Tracker;

/** Opens the packet source the options name. */
final class Sources {
    private Sources() {
    }

    static PacketSource open(CaptureOptions o) throws CaptureFileException, CaptureFailure {
        if (!o.live()) {
            return CaptureFileReader.open(o.file());
        }
        throw new CaptureFailure("live capture is not available in this build");
    }

    static L7Tracker l7Tracker() {
        return L7Tracker.NONE;
    }
}
