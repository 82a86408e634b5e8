/**
 * The project's own fast reader of capture files (pcap, pcapng, gzip-compressed), used by the agent's
 * offline path instead of libpcap. Entry point: {@link io.siteflow.agent.capture.file.CaptureFileReader}.
 */
package io.siteflow.agent.capture.file;
