package io.siteflow.agent.app;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32;

/** Agent ids and run ids. */
final class AgentIds {
    private AgentIds() {
    }

    /**
     * A run id for a file replay that is the same on every run over the same file, so that replaying a
     * file twice into Kafka yields the same record ids (counted once downstream): agent id + CRC-32 of the
     * file's size and first 1 MiB.
     */
    static String forFile(String agent, Path file) {
        CRC32 crc = new CRC32();
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buf = in.readNBytes(1 << 20);
            crc.update(buf);
            crc.update(Long.toString(Files.size(file)).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        } catch (IOException e) {
            crc.update(file.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        return agent + "-" + String.format("%08x", crc.getValue());
    }

    /** A run id for a live capture: agent id + start time in base 36. */
    static String forLive(String agent) {
        return agent + "-" + Long.toString(System.currentTimeMillis(), 36);
    }
}
