package io.siteflow.cli.input;

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
 * What the commands that read several captures or flow files share ({@code isolation check}, {@code isolation
 * propose}): their flow records, and the result written to {@code --out} or standard output. Stateless.
 */
public final class CaptureRecords {
    private CaptureRecords() {
    }

    /**
     * Gives every flow record of the files (captures or flow files, {@link FlowInput}), in order, to {@code each},
     * as {@code agent} would export them.
     *
     * @return what was read: the problems (a capture cut short, a malformed row, ...) and notes of all files
     */
    public static FlowInput.Result replay(List<Path> files, String agent, Consumer<FlowRecord> each) {
        List<String> problems = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        long packets = 0;
        for (Path file : files) {
            FlowInput.Result r = FlowInput.replay(file, agent, each);
            problems.addAll(r.problems());
            notes.addAll(r.notes());
            packets += r.packets();
        }
        return new FlowInput.Result(problems, notes, packets);
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
