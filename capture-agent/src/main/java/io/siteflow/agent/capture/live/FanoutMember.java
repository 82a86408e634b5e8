package io.siteflow.agent.capture.live;

import io.siteflow.agent.capture.CaptureFailure;
import io.siteflow.agent.capture.PacketHandler;
import io.siteflow.agent.capture.PacketSource;

/** One socket of a {@link FanoutCapture}: a live capture whose packet socket can join a {@code PACKET_FANOUT} group. */
interface FanoutMember extends PacketSource {
    /** The capture's {@code AF_PACKET} socket. */
    int socket() throws CaptureFailure;

    /** As {@link PacketSource#run(PacketHandler)}; a live capture fails only with a {@link CaptureFailure}. */
    @Override
    void run(PacketHandler handler) throws CaptureFailure;
}
