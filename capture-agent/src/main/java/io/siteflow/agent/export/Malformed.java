package io.siteflow.agent.export;

/**
 * Why a datagram, or a part of it, could not be read: counted per kind ({@link ExportCounters}), the first of each
 * kind logged with the exporter and the byte offset. What was read before the fault is kept.
 */
public enum Malformed {
    /** Shorter than the header of its version. */
    TRUNCATED_HEADER,
    /** A version other than 5, 9 and 10 (sFlow: other than 5, or an agent address type other than IPv4 and IPv6). */
    UNKNOWN_VERSION,
    /** The header's length or record count does not match the datagram. */
    BAD_LENGTH,
    /** A set or FlowSet (an sFlow sample) whose length is below its header or runs past the datagram. */
    BAD_SET_LENGTH,
    /**
     * A template or options template that cannot be read (truncated, impossible field lengths, records of no bytes).
     */
    BAD_TEMPLATE,
    /**
     * A data record that runs past its set, or a variable-length field that runs past the record (sFlow: a record
     * past its sample, a sampled header past its record).
     */
    TRUNCATED_RECORD,
    /**
     * A data record whose octet or packet counter (times the sampling rate) does not fit a signed 64-bit count (sFlow:
     * a sample's frame or IP length times its rate): the record is left out.
     */
    BAD_COUNTER,
    /** A data set whose template is not known (not received yet, withdrawn or expired). */
    NO_TEMPLATE,
    /** A template beyond the exporter's bound (a template flood): refused. */
    TEMPLATE_LIMIT,
    /** An sFlow sampled packet header the agent's packet decoder finds malformed. */
    BAD_SAMPLED_HEADER
}
