package io.siteflow.agent.app;

import io.siteflow.agent.capture.CaptureFailure;
import io.siteflow.agent.capture.CaptureFileException;
import io.siteflow.agent.capture.PacketSource;
import io.siteflow.agent.capture.file.CaptureFileReader;
import io.siteflow.agent.capture.file.PacedReplay;
import io.siteflow.agent.capture.live.BpfFilters;
import io.siteflow.agent.capture.live.FanoutCapture;
import io.siteflow.agent.capture.live.LiveCapture;
import io.siteflow.agent.config.Backend;
import io.siteflow.agent.config.CaptureOptions;
import io.siteflow.agent.ebpf.EbpfFlowSource;
import io.siteflow.agent.ebpf.EbpfProbe;
import io.siteflow.agent.export.ExportSource;
import io.siteflow.agent.pipeline.PacketFlows;
import io.siteflow.agent.pipeline.Pipeline;
import io.siteflow.agent.source.FlowSource;
import java.util.Optional;

/**
 * Opens the source the options name, as a {@link FlowSource}: the one line where a kind of source is chosen. A
 * capture file ({@code -r}, read on this thread; {@code --realtime} paced and handed off like live capture) and a
 * live interface ({@code -i}, one handle or a {@code --workers} fan-out group) go through the packet pipeline
 * ({@link PacketFlows}); a source that delivers flows is opened here too: flow exports ({@code siteflow collect},
 * {@link ExportSource}) and flows aggregated in the kernel ({@code --backend ebpf}, {@link EbpfFlowSource}).
 */
final class Sources {
    private Sources() {
    }

    static FlowSource open(CaptureOptions o, Pipeline.Settings settings) throws CaptureFileException, CaptureFailure {
        return open(o, settings, choose(o));
    }

    /**
     * The backend a live capture runs with, and what the start-up line says of the choice: empty unless
     * {@code --backend auto} chose.
     */
    record BackendChoice(Backend backend, String note) {
    }

    /**
     * {@code --backend auto} (the default): ebpf where {@link EbpfProbe} finds the kernel, the capabilities and libbpf
     * it needs, the interface carries Ethernet frames, the program loads and no other live agent's program sits on the
     * interface, else pcap, with the reason; pcap too for
     * the text report (it needs packets) and for {@code --workers} above 1 (asked for packet sockets). Other backends
     * stay as given.
     */
    static BackendChoice choose(CaptureOptions o) {
        if (o.backend() != Backend.AUTO) {
            return new BackendChoice(o.backend(), "");
        }
        if (!o.live() || o.collecting()) {
            return new BackendChoice(Backend.PCAP, "");
        }
        if (o.text()) {
            return new BackendChoice(Backend.PCAP, "auto: pcap, the text report needs packets");
        }
        if (o.workers() > 1) {
            return new BackendChoice(Backend.PCAP, "auto: pcap, --workers " + o.workers()
                    + " asks for a fanout group of packet sockets");
        }
        Optional<String> link = EbpfProbe.interfaceProblem(o.iface());
        if (link.isPresent()) {
            return new BackendChoice(Backend.PCAP, "auto: pcap, ebpf cannot run here: " + link.get());
        }
        EbpfProbe.Result r = EbpfProbe.probe();
        Optional<String> busy = r.usable() ? EbpfProbe.liveAgentOn(o.iface()) : Optional.empty();
        if (busy.isPresent()) {
            return new BackendChoice(Backend.PCAP, "auto: pcap, ebpf cannot run here: " + busy.get());
        }
        return r.usable() ? new BackendChoice(Backend.EBPF, "auto: ebpf, " + r.reason())
                : new BackendChoice(Backend.PCAP, "auto: pcap, ebpf cannot run here: " + r.reason());
    }

    /** Opens the source for {@code choice} ({@link #choose}). */
    static FlowSource open(CaptureOptions o, Pipeline.Settings settings, BackendChoice choice)
            throws CaptureFileException, CaptureFailure {
        if (o.collecting()) {
            return ExportSource.open(o.collect(), settings.agent(), settings.runId(), settings.flowTable());
        }
        if (o.live() && choice.backend() == Backend.EBPF) {
            return EbpfFlowSource.open(o.iface(), o.remoteCidrs(), settings.flowTable(), settings.agent(),
                    settings.runId(), o.snaplen(), settings.sni());
        }
        return new PacketFlows(packets(o), settings, o.timely());
    }

    /** What the start-up line adds after {@code capturing on IFACE} for this source (empty for the packet path). */
    static String startNote(CaptureOptions o, FlowSource source) {
        return source instanceof EbpfFlowSource ebpf ? ebpf.startNote(o.workers()) : "";
    }

    /** As {@link #startNote(CaptureOptions, FlowSource)}, led by what {@code --backend auto} chose and why. */
    static String startNote(CaptureOptions o, FlowSource source, BackendChoice choice) {
        String note = startNote(o, source);
        if (choice.note().isEmpty()) {
            return note;
        }
        return note.isEmpty() ? " (" + choice.note() + ")" : " (" + choice.note() + "; " + note.substring(2);
    }

    private static PacketSource packets(CaptureOptions o) throws CaptureFileException, CaptureFailure {
        if (!o.live()) {
            return o.realtime() ? PacedReplay.open(o.file(), o.loop() ? o.passes() : 1) : CaptureFileReader.open(o.file());
        }
        LiveCapture.Builder live = LiveCapture.builder(o.iface())
                .snaplen(o.snaplen())
                .bufferBytes(o.bufferBytes())
                .bpfFilter(BpfFilters.forRemoteCidrs(o.remoteCidrs()));
        return o.workers() == 1 ? live.open(o.captureApi())
                : FanoutCapture.open(o.iface(), live, o.workers(), o.captureApi());
    }
}
