package io.siteflow.agent.capture;

import java.util.List;

/**
 * A source of packets: a capture file or a live interface. {@link #run} delivers every packet to the
 * handler on the calling thread until the source ends or {@link #stop()} is called from another thread.
 * A source with several workers (a live fan-out group) delivers each worker's packets on a thread of its own,
 * to a handler of its own ({@link #run(List)}).
 */
public interface PacketSource extends SourceCounters, AutoCloseable {

    /**
     * Delivers packets until the end of the source or {@link #stop()}.
     *
     * @throws CaptureException after delivering every packet read before the problem
     */
    void run(PacketHandler handler) throws CaptureException;

    /** Threads that deliver packets at once; {@link #run(List)} takes one handler for each. 1 unless said. */
    @Override
    default int workers() {
        return 1;
    }

    /**
     * Delivers packets until the end of the source or {@link #stop()}, worker {@code i}'s to {@code handlers.get(i)}
     * on that worker's thread; returns when every worker has returned.
     *
     * @throws IllegalArgumentException when there is not one handler per {@link #workers()}
     * @throws CaptureException         as {@link #run(PacketHandler)}, the first worker's problem
     */
    default void run(List<? extends PacketHandler> handlers) throws CaptureException {
        if (handlers.size() != workers()) {
            throw new IllegalArgumentException(handlers.size() + " handlers for " + workers() + " workers");
        }
        run(handlers.get(0));
    }

    /**
     * True when the source keeps packets in a buffer of its own while the handler works (a live TPACKET_V3 ring,
     * where the kernel fills the next blocks meanwhile) and tells an idle handler the time ({@link
     * PacketHandler#onIdle}): the handler may then do all its work on the capture thread, with no hand-off queue.
     * False unless said.
     */
    default boolean buffersPackets() {
        return false;
    }

    /** Asks {@link #run} to return soon; safe from any thread, including a signal handler's. */
    void stop();

    /** Packets delivered and dropped so far; safe from any thread. */
    @Override
    CaptureStats stats();

    @Override
    void close();
}
