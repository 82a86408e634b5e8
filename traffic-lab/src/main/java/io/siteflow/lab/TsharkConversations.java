package io.siteflow.lab;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * tshark's TCP conversations of a capture file, counted as the project counts against tshark
 * ({@code ../shared/corpus/SOURCES.md}): one run of {@code tshark -n -q -r FILE -X lua_script:conv.lua -z conv,tcp}
 * with the corpus's {@code truth/conv.lua}, which listens on the same taps as tshark's conversation tables and prints
 * exact byte counts (tshark 4.0 rounds the table's bytes: "12 kB"). Bytes are wire lengths ({@code frame.len}); a
 * conversation is a stream ({@code tcp.stream}), A the source of its first packet. The table's frame counts must
 * equal the script's, per pair of endpoints, or the reading fails. Stateless.
 */
public final class TsharkConversations {
    /** A row of the table: {@code A:port <-> B:port  frames bytes unit  frames bytes unit  frames bytes unit ...}. */
    private static final Pattern TABLE_ROW = Pattern.compile(
            "^(\\S+):(\\d+)\\s+<->\\s+(\\S+):(\\d+)\\s+([\\d,]+) \\S+ \\S+\\s+([\\d,]+) \\S+ \\S+\\s+([\\d,]+) \\S+ \\S+\\s.*$");

    /**
     * One TCP conversation.
     *
     * @param a          the source of the conversation's first packet
     * @param aPort      its port
     * @param b          the other end
     * @param bPort      its port
     * @param stream     tshark's {@code tcp.stream}
     * @param framesAtoB frames from A to B
     * @param bytesAtoB  their wire bytes
     * @param framesBtoA frames from B to A
     * @param bytesBtoA  their wire bytes
     */
    public record Conversation(String a, int aPort, String b, int bPort, int stream, long framesAtoB, long bytesAtoB,
                               long framesBtoA, long bytesBtoA) {
        public long frames() {
            return framesAtoB + framesBtoA;
        }

        public long wireBytes() {
            return bytesAtoB + bytesBtoA;
        }

        /** True when one end is {@code client} (any port) and the other {@code server:serverPort}. */
        public boolean between(String client, String server, int serverPort) {
            return a.equals(client) && b.equals(server) && bPort == serverPort
                    || b.equals(client) && a.equals(server) && aPort == serverPort;
        }

        private String endpoints() {
            String x = a + ":" + aPort;
            String y = b + ":" + bPort;
            return x.compareTo(y) <= 0 ? x + " " + y : y + " " + x;
        }
    }

    private TsharkConversations() {
    }

    /**
     * The TCP conversations of {@code capture}.
     *
     * @param convLua the corpus's {@code truth/conv.lua}
     * @throws IOException when tshark fails, or its table and the script disagree on a pair's frames
     */
    public static List<Conversation> tcp(Path capture, Path convLua) throws IOException {
        String out = Shell.run("tshark", "-n", "-q", "-r", capture.toString(), "-X", "lua_script:" + convLua,
                "-z", "conv,tcp");
        List<Conversation> rows = new ArrayList<>();
        Map<String, Long> tableFrames = new TreeMap<>();
        for (String line : out.split("\n")) {
            String[] f = line.split("\t", -1);
            if (f.length >= 12 && f[0].equals("@@CONV") && f[1].equals("tcp")) {
                rows.add(new Conversation(f[2], Integer.parseInt(f[3]), f[4], Integer.parseInt(f[5]),
                        Integer.parseInt(f[6]), Long.parseLong(f[7]), Long.parseLong(f[8]), Long.parseLong(f[9]),
                        Long.parseLong(f[10])));
                continue;
            }
            Matcher m = TABLE_ROW.matcher(line);
            if (m.matches()) {
                Conversation c = new Conversation(m.group(1), Integer.parseInt(m.group(2)), m.group(3),
                        Integer.parseInt(m.group(4)), 0, 0, 0, 0, 0);
                tableFrames.merge(c.endpoints(), Long.parseLong(m.group(7).replace(",", "")), Long::sum);
            }
        }
        Map<String, Long> scriptFrames = new TreeMap<>();
        rows.forEach(c -> scriptFrames.merge(c.endpoints(), c.frames(), Long::sum));
        if (!scriptFrames.equals(tableFrames)) {
            throw new IOException(capture + ": tshark's conv,tcp frames " + tableFrames + " differ from " + convLua
                    + "'s " + scriptFrames);
        }
        return rows;
    }
}
