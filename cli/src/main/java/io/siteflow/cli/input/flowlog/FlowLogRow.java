package io.siteflow.cli.input.flowlog;

/**
 * One unidirectional row of a cloud flow log, as read: what {@code src} sent to {@code dst} on the interface
 * {@code iface} in one capture window. Addresses are in {@code IpAddresses.format} form.
 *
 * @param iface    the interface that logged the row (AWS {@code interface-id}, OCI VNIC OCID), or the file name
 * @param tcpFlags the TCP flags OR-ed over the window (AWS {@code tcp-flags}), 0 when not logged
 * @param startMs  epoch ms of the window's first packet
 * @param endMs    epoch ms of the window's last packet
 */
public record FlowLogRow(String iface, int proto, String src, int srcPort, String dst, int dstPort, long bytes,
        long packets, int tcpFlags, long startMs, long endMs) {
}
