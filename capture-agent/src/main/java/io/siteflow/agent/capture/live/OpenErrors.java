package io.siteflow.agent.capture.live;

import io.siteflow.agent.capture.CaptureFailure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.regex.Pattern;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.PcapNetworkInterface;
import org.pcap4j.core.Pcaps;

/**
 * The messages of a live capture that cannot start. Exact forms:
 * <ul>
 *   <li>{@code no such interface: eth9 (interfaces: lo, ens3, any)}</li>
 *   <li>{@code ens3: permission denied: capturing needs CAP_NET_RAW (run as root or grant the capability:
 *       setcap cap_net_raw,cap_net_admin+eip /usr/lib/jvm/java-17-openjdk-amd64/bin/java)}</li>
 *   <li>{@code ens3: bad BPF filter "net 10.1.0.0/33": mask length must be <= 32}</li>
 *   <li>{@code ens3: interface is down}, otherwise {@code ens3: cannot capture: <libpcap's message>}</li>
 * </ul>
 */
final class OpenErrors {
    // libpcap's pcap_activate() results (pcap/pcap.h)
    static final int PCAP_ERROR_NO_SUCH_DEVICE = -5;
    static final int PCAP_ERROR_PERM_DENIED = -8;
    static final int PCAP_ERROR_IFACE_NOT_UP = -9;
    static final int PCAP_ERROR_PROMISC_PERM_DENIED = -11;

    private static final Pattern PCAP4J_PREFIX = Pattern.compile("^(Unexpected error|Error) occurr?ed( in pcap_\\w+)?: ");
    private static final int CAP_NET_ADMIN = 12;
    private static final int CAP_NET_RAW = 13;

    private OpenErrors() {
    }

    static CaptureFailure forActivate(String iface, PcapNativeException e) {
        int rc = e.getReturnCode() == null ? 0 : e.getReturnCode();
        String message = switch (rc) {
            case PCAP_ERROR_NO_SUCH_DEVICE -> noSuchInterface(iface, interfaceNames());
            case PCAP_ERROR_PERM_DENIED -> permissionDenied(iface, "capturing", missingCapability(capEff()), java());
            case PCAP_ERROR_PROMISC_PERM_DENIED -> permissionDenied(iface, "promiscuous mode", "CAP_NET_ADMIN", java());
            case PCAP_ERROR_IFACE_NOT_UP -> iface + ": interface is down";
            default -> iface + ": cannot capture: " + libpcapMessage(e);
        };
        return new CaptureFailure(message, e);
    }

    static CaptureFailure badFilter(String iface, String filter, PcapNativeException e) {
        return new CaptureFailure(iface + ": bad BPF filter \"" + filter + "\": " + libpcapMessage(e), e);
    }

    /** libpcap's message without pcap4j's prefix ("Error occurred in pcap_compile: ", "Error occurred: "). */
    static String libpcapMessage(PcapNativeException e) {
        return PCAP4J_PREFIX.matcher(String.valueOf(e.getMessage())).replaceFirst("");
    }

    /** Capturing refused (EPERM): the capability missing, as for a libpcap handle. */
    static CaptureFailure capturingNotPermitted(String iface) {
        return new CaptureFailure(permissionDenied(iface, "capturing", missingCapability(capEff()), java()));
    }

    /** Promiscuous mode refused (EPERM), as for a libpcap handle. */
    static CaptureFailure promiscuousNotPermitted(String iface) {
        return new CaptureFailure(permissionDenied(iface, "promiscuous mode", "CAP_NET_ADMIN", java()));
    }

    static String noSuchInterface(String iface, List<String> known) {
        String list = known.isEmpty() ? "libpcap lists none" : "interfaces: " + String.join(", ", known);
        return "no such interface: " + iface + " (" + list + ")";
    }

    static String permissionDenied(String iface, String what, String capability, String javaPath) {
        return iface + ": permission denied: " + what + " needs " + capability
                + " (run as root or grant the capability: setcap cap_net_raw,cap_net_admin+eip " + javaPath + ")";
    }

    /**
     * The capability to name, from the effective set ({@code CapEff} of /proc/self/status, hex): CAP_NET_RAW
     * unless it is held, then CAP_NET_ADMIN unless it is held; CAP_NET_RAW again when both are held (denied
     * by something else, e.g. a security module) or the set is unknown (empty text).
     */
    static String missingCapability(String capEffHex) {
        long caps;
        try {
            caps = Long.parseUnsignedLong(capEffHex.strip(), 16);
        } catch (NumberFormatException e) {
            return "CAP_NET_RAW";
        }
        boolean raw = (caps & (1L << CAP_NET_RAW)) != 0;
        boolean admin = (caps & (1L << CAP_NET_ADMIN)) != 0;
        return raw && !admin ? "CAP_NET_ADMIN" : "CAP_NET_RAW";
    }

    /** The names libpcap can capture on, in libpcap's order; empty when they cannot be listed. */
    static List<String> interfaceNames() {
        try {
            return Pcaps.findAllDevs().stream().map(PcapNetworkInterface::getName).toList();
        } catch (PcapNativeException e) {
            return List.of();
        }
    }

    private static String capEff() {
        try {
            for (String line : Files.readAllLines(Paths.get("/proc/self/status"))) {
                if (line.startsWith("CapEff:")) {
                    return line.substring("CapEff:".length());
                }
            }
        } catch (IOException e) {
            // not Linux or /proc not mounted: capability unknown
        }
        return "";
    }

    private static String java() {
        return ProcessHandle.current().info().command().map(OpenErrors::realPath).orElse("<path to java>");
    }

    private static String realPath(String command) {
        try {
            return Path.of(command).toRealPath().toString();
        } catch (IOException e) {
            return command;
        }
    }
}
