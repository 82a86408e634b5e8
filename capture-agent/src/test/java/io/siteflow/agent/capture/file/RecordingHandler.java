package io.siteflow.agent.capture.file;

import io.siteflow.agent.capture.PacketHandler;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Keeps a copy of every packet it is handed. */
final class RecordingHandler implements PacketHandler {
    /** One delivered packet, bytes copied. */
    record Seen(long timestampNanos, int linkType, byte[] data, int wireLength) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Seen s && s.timestampNanos == timestampNanos && s.linkType == linkType
                    && Arrays.equals(s.data, data) && s.wireLength == wireLength;
        }

        @Override
        public int hashCode() {
            return Long.hashCode(timestampNanos) * 31 + Arrays.hashCode(data);
        }

        @Override
        public String toString() {
            return "Seen[ts=" + timestampNanos + ", link=" + linkType + ", cap=" + data.length + ", wire=" + wireLength + "]";
        }
    }

    final List<Seen> seen = new ArrayList<>();

    @Override
    public void onPacket(long timestampNanos, int linkType, byte[] data, int offset, int capturedLength, int wireLength) {
        seen.add(new Seen(timestampNanos, linkType, Arrays.copyOfRange(data, offset, offset + capturedLength), wireLength));
    }
}
