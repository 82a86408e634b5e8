package io.siteflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.processor.topology.TopologyConfig;
import io.siteflow.rules.verdict.Window;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Where a command's help (description, header, footer) breaks a paragraph by hand, each of its lines fits
 * picocli's 80 columns, so that picocli does not break the sentence a second time and leave a short line in
 * the middle of it, and examples (indented, or after "Example") fit whole, so that they can be copied. (A
 * paragraph written as one line is wrapped by picocli alone, which is fine.)
 */
class HelpTextTest {
    private static final int WIDTH = 80;

    @Test
    void everyHandWrittenHelpLineFitsEightyColumns() {
        List<String> tooLong = new ArrayList<>();
        collect(new CommandLine(new SiteflowCommand()).getCommandSpec(), tooLong);

        assertThat(tooLong).isEmpty();
    }

    @Test
    void theTopLevelDescriptionReadsAsWritten() {
        CommandRun run = CommandRun.of("--help");

        assertThat(run.out()).contains("siteflow captures traffic, classifies it by site model and rules, and says\n"
                + "whether a server's cross-site bytes go to the database (DB share >= 90%).\n");
    }

    @Test
    void theWindowDefaultIsTheOneTheDomainOwnsInEveryLayer() {
        long seconds = Window.DEFAULT_SIZE_MS / 1000;

        assertThat(CommandRun.of("audit", "--help").out().replaceAll("\\s+", " "))
                .contains("--window SECONDS Tumbling window length. Default: " + seconds + ".");
        assertThat(CommandRun.of("process", "--help").out().replaceAll("\\s+", " "))
                .contains("--window DURATION verdict window (default: " + seconds + "s)");
        assertThat(TopologyConfig.DEFAULT_WINDOW).isEqualTo(seconds + "s");
        assertThat(TopologyConfig.DEFAULTS.window()).isEqualTo(Duration.ofMillis(Window.DEFAULT_SIZE_MS));
    }

    private static void collect(CommandSpec spec, List<String> out) {
        for (String[] text : List.of(spec.usageMessage().description(), spec.usageMessage().header(),
                spec.usageMessage().footer())) {
            for (int i = 0; i < text.length; i++) {
                String shown = String.format(text[i].replace("%n", ""));
                boolean continued = i + 1 < text.length && !text[i + 1].isBlank();
                boolean example = shown.startsWith(" ") || shown.startsWith("Example");
                if (shown.length() > WIDTH && (continued || example)) {
                    out.add(spec.qualifiedName() + ": " + shown);
                }
            }
        }
        spec.subcommands().values().forEach(sub -> collect(sub.getCommandSpec(), out));
    }
}
