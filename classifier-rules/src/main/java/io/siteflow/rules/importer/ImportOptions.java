package io.siteflow.rules.importer;

import io.siteflow.model.Cidr;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the operator adds to the domain: the sites ({@code --site name=cidr}, in the order given, a site may be
 * given several times for several networks), web-tier addresses ({@code --frontend}), the hosts file and
 * tnsnames.ora (each possibly {@link HostsFile#none()} / {@link TnsNames#none()}), and whether to write the
 * {@code isolation:} block the domain implies ({@code --isolation}). Immutable.
 */
public record ImportOptions(Map<String, List<Cidr>> sites, List<String> frontends, HostsFile hosts, TnsNames tnsNames,
                            boolean isolation) {
    public ImportOptions {
        sites = Collections.unmodifiableMap(new LinkedHashMap<>(sites));
        frontends = List.copyOf(frontends);
    }

    /** Options without the {@code isolation:} block. */
    public ImportOptions(Map<String, List<Cidr>> sites, List<String> frontends, HostsFile hosts, TnsNames tnsNames) {
        this(sites, frontends, hosts, tnsNames, false);
    }
}
