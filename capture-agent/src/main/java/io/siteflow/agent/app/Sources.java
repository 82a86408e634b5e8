package io.siteflow.agent.app;

import io.siteflow.agent.capture.CaptureFailure;
import io.siteflow.agent.capture.CaptureFileException;
import io.siteflow.agent.capture.PacketSource;
import io.siteflow.agent.capture.file.CaptureFileReader;
import io.siteflow.agent.capture.file.PacedReplay;
import io.siteflow.agent.capture.live.BpfFilters;
import io.siteflow.agent.capture.live.FanoutCapture;
import io.siteflow.agent.capture.live.LiveCapture;
import io.siteflow.agent.config.CaptureOptions;

/** Opens the packet source the options name. */
final class Sources {
    private Sources() {
    }

    static PacketSource open(CaptureOptions o) throws CaptureFileException, CaptureFailure {
        if (!o.live()) {
            return o.realtime() ? PacedReplay.open(o.file(), o.loop() ? o.passes() : 1) : CaptureFileReader.open(o.file());
        }
        LiveCapture.Builder live = LiveCapture.builder(o.iface())
                .snaplen(o.snaplen())
                .bufferBytes(o.bufferBytes())
                .bpfFilter(BpfFilters.forRemoteCidrs(o.remoteCidrs()));
        return o.workers() == 1 ? live.build() : FanoutCapture.open(o.iface(), live, o.workers());
    }
}
