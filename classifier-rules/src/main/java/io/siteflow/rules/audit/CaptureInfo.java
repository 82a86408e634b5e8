package io.siteflow.rules.audit;

import java.util.Objects;

/**
 * What an audit read, for the {@code capture} object of the report.
 *
 * @param source       capture file or input name
 * @param records      flow records read
 * @param firstMs      earliest record start, epoch ms (0 when no record)
 * @param lastMs       latest record end, epoch ms (0 when no record)
 * @param bytes        IP bytes of all records, both directions
 * @param unclassified IP bytes of records that matched no rule
 * @param rejected     records that could not be classified (an address that is no IP address)
 * @param received     packets the observer received (0 when unknown)
 * @param dropped      packets the observer dropped (0 when unknown)
 */
public record CaptureInfo(String source, long records, long firstMs, long lastMs, long bytes, long unclassified,
                          long rejected, long received, long dropped) {
    public CaptureInfo {
        Objects.requireNonNull(source, "source");
    }
}
