package io.siteflow.cli.input;

import io.siteflow.rules.model.SiteModel;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The inputs of the offline commands that read a capture or flow file ({@link FlowInput}) with a site model
 * ({@code audit}, {@code whatif}), as a picocli mixin, and the one order they are checked in: the inputs first, then
 * the model, before anything is printed ({@link #check(List, Path, PrintWriter)}, also for the commands that read
 * several: {@code isolation check}).
 */
public final class CaptureInput {
    @Parameters(paramLabel = "FILE", description = "Capture or flow file, recognised by its content: pcap, pcapng "
            + "(gzip-compressed or not), flow-record JSON lines (capture --json, collect --json), IPFIX files "
            + "(RFC 5655: IPFIX messages one after the other), AWS VPC Flow Logs "
            + "(default or custom format with its header line) or OCI VCN flow logs (JSON lines as exported; "
            + "docs/OPERATIONS.md, Offline inputs).")
    Path capture;

    /** The capture file given. */
    public Path capture() {
        return capture;
    }

    /** {@code --sites}. */
    public Path sites() {
        return sites;
    }

    @Option(names = "--sites", required = true, paramLabel = "FILE", description = "The site model (sites.yaml).")
    Path sites;

    /**
     * The site model, once the capture is known to be readable; empty after printing why not (a capture that cannot
     * be read, or every diagnostic of a model with errors): the command exits 2.
     */
    public Optional<SiteModel> check(PrintWriter err) {
        return check(List.of(capture), sites, err);
    }

    /**
     * The site model, once every capture is known to be readable; empty after printing why not (the first capture
     * that cannot be read, or every diagnostic of a model with errors): the command exits 2.
     */
    public static Optional<SiteModel> check(List<Path> captures, Path sites, PrintWriter err) {
        for (Path capture : captures) {
            Optional<String> unreadable = FlowInput.check(capture);
            if (unreadable.isPresent()) {
                err.println(unreadable.get());
                err.flush();
                return Optional.empty();
            }
        }
        return SiteModels.load(sites, err, false);
    }
}
