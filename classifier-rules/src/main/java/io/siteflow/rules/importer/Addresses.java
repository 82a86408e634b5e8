package io.siteflow.rules.importer;

import io.siteflow.model.Cidr;
import io.siteflow.model.IpAddresses;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Turns what the domain writes (addresses or host names) into addresses and places them in sites. */
final class Addresses {
    private final ImportOptions options;
    private final Findings findings;

    Addresses(ImportOptions options, Findings findings) {
        this.options = options;
        this.findings = findings;
    }

    /**
     * The addresses of {@code text}: itself when it is an IP address, else what the hosts file gives; an
     * unresolved name is reported (as {@code key NAME ...}) and gives none.
     */
    List<String> resolve(String text, Origin at, String element, String key) {
        if (HostsFile.isAddress(text)) {
            return List.of(text);
        }
        if (text.startsWith("@@")) {
            findings.error(at, element, key + " " + text + " is a WDT token, not an address; host left out"
                    + " (give the model with its variables resolved)");
            return List.of();
        }
        List<String> found = options.hosts().resolve(text);
        if (found.isEmpty()) {
            String why = options.hosts().fileName().isEmpty() ? "is a host name and no --hosts file was given"
                    : "is not in the hosts file " + options.hosts().fileName();
            findings.error(at, element, key + " " + text + " " + why + "; host left out");
        }
        return found;
    }

    /** The site whose network holds the address (longest prefix), or empty, reported. */
    Optional<String> site(String address, Origin at, String element, String key) {
        long[] a = IpAddresses.parse(address);
        String best = null;
        int bestBits = -1;
        for (Map.Entry<String, List<Cidr>> s : options.sites().entrySet()) {
            for (Cidr c : s.getValue()) {
                if (c.contains(a[0], a[1]) && c.bits() > bestBits) {
                    best = s.getKey();
                    bestBits = c.bits();
                }
            }
        }
        if (best == null) {
            findings.error(at, element, key + " " + address + " is in no --site network; host left out");
        }
        return Optional.ofNullable(best);
    }

    /** Sort key: numeric address order, IPv4 before IPv6. */
    static String sortKey(String address) {
        long[] a = IpAddresses.parse(address);
        return String.format("%016x%016x", a[0], a[1]);
    }
}
