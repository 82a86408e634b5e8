package io.siteflow.cli.input;

import io.siteflow.agent.app.FileReplay;
import io.siteflow.agent.flow.FlowTableConfig;
import io.siteflow.agent.flow.FlowSink;
import io.siteflow.model.FlowRecord;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * What the commands that read several captures share ({@code isolation check}, {@code isolation propose}): the
 * captures' flow records, and the result written to {@code --out} or standard output. Stateless.
 */
public final class CaptureRecords {
    private CaptureRecords() {
    }

    /**
     * Gives every flow record of the captures, in order, to {@code each}, as {@code agent} would export them.
     *
     * @return what could not be read (a capture cut short, ...), one message each; empty when all was read
     */
    public static List<String> replay(List<Path> captures, String agent, Consumer<FlowRecord> each) {
        List<String> problems = new ArrayList<>();
        for (Path capture : captures) {
            problems.addAll(FileReplay.run(capture, agent, FlowTableConfig.DEFAULTS, new FlowSink() {
                @Override
                public void accept(FlowRecord r) {
                    each.accept(r);
                }

                @Override
                public void close() {
                }
            }).problems());
        }
        return problems;
    }

    /**
     * Writes {@code text} to {@code out}, or to {@code stdout} when {@code out} is null.
     *
     * @param command what the message names, e.g. {@code siteflow isolation check}
     * @return false after printing why the file could not be written
     */
    public static boolean write(Path out, String text, PrintWriter stdout, PrintWriter err, String command) {
        if (out == null) {
            stdout.print(text);
            stdout.flush();
            return true;
        }
        try {
            Files.writeString(out, text, StandardCharsets.UTF_8);
            return true;
        } catch (IOException e) {
            err.println(command + ": --out " + out + ": cannot write: " + e.getClass().getSimpleName() + " "
                    + e.getMessage());
            err.flush();
            return false;
        }
    }
}
