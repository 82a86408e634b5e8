package io.siteflow.agent.export;

import io.siteflow.model.IpAddresses;
import java.util.HashMap;
import java.util.Map;

/**
 * What the collector keeps per exporter (by source address): per observation domain (and protocol version) its
 * templates, its export sequence and the sampling rate it announced. Templates and domains are bounded per exporter
 * so that a flood cannot exhaust memory. Used on the decoding thread only; not thread-safe.
 */
public final class ExporterState {
    final long hi;
    final long lo;
    final String address;
    private final Map<Long, Domain> domains = new HashMap<>();
    /** sFlow: per agent address and sub-agent, the datagram sequence and the data sources' drops. */
    private final Map<SflowAgent, SflowState> sflowAgents = new HashMap<>();
    /** Templates held over all domains. */
    int templates;

    ExporterState(long hi, long lo, String address) {
        this.hi = hi;
        this.lo = lo;
        this.address = address;
    }

    /**
     * The state of a new exporter at {@code address} (IPv4 or IPv6 text), for a decoder used without a socket: an
     * IPFIX file read offline, a test.
     *
     * @throws IllegalArgumentException when {@code address} is not an IP address
     */
    public static ExporterState of(String address) {
        long[] hl = IpAddresses.parse(address);
        return new ExporterState(hl[0], hl[1], IpAddresses.format(hl[0], hl[1]));
    }

    /** The exporter's address as records carry it ({@code 192.0.2.1}, {@code 2001:db8::1}). */
    public String address() {
        return address;
    }

    /** The domain's state, created when new and below {@code maxDomains}; null beyond the bound. */
    Domain domain(int version, long id, int maxDomains) {
        Long key = ((long) version << 32) | id;
        Domain d = domains.get(key);
        if (d == null && domains.size() < maxDomains) {
            d = new Domain();
            domains.put(key, d);
        }
        return d;
    }

    /** The sFlow agent's state, created when new and below {@code maxAgents}; null beyond the bound. */
    SflowState sflowAgent(long hi, long lo, long subAgent, int maxAgents) {
        SflowAgent key = new SflowAgent(hi, lo, subAgent);
        SflowState s = sflowAgents.get(key);
        if (s == null && sflowAgents.size() < maxAgents) {
            s = new SflowState();
            sflowAgents.put(key, s);
        }
        return s;
    }

    private record SflowAgent(long hi, long lo, long subAgent) {
    }

    /** One sFlow agent and sub-agent of one exporter: its datagram sequence, its data sources' last drops counter. */
    static final class SflowState {
        boolean sequenceKnown;
        long nextSequence;
        final Map<Long, Long> drops = new HashMap<>();
    }

    /** One observation domain of one exporter: templates by id, sequence, announced sampling rate. */
    static final class Domain {
        final Map<Integer, Template> templates = new HashMap<>();
        boolean sequenceKnown;
        long nextSequence;
        /** Sampling rate from an options data record (0: none announced). */
        long sampling;
    }
}
