package io.siteflow.agent.capture;

/**
 * A source of packets: a capture file or a live interface. {@link #run} delivers every packet to the
 * handler on the calling thread until the source ends or {@link #stop()} is called from another thread.
 */
public interface PacketSource extends AutoCloseable {

    /**
     * Delivers packets until the end of the source or {@link #stop()}.
     *
     * @throws CaptureException after delivering every packet read before the problem
     */
    void run(PacketHandler handler) throws CaptureException;

    /** Asks {@link #run} to return soon; safe from any thread, including a signal handler's. */
    void stop();

    /** Packets delivered and dropped so far; safe from any thread. */
    CaptureStats stats();

    /** A name for records and reports: the interface name or the file name. */
    String name();

    @Override
    void close();
}
