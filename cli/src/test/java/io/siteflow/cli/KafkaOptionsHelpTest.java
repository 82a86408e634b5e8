package io.siteflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.siteflow.agent.app.AgentMain;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every command that talks to Kafka declares its connection options once, through the {@code KafkaOptions}
 * mixin: {@code capture}, {@code process} and {@code topics check} show the same names, labels and help for
 * {@code --bootstrap}, {@code --kafka-config} and {@code --kafka} (whitespace and order aside: picocli pads each
 * command's option column to its longest option and orders each command's options), and the commands that need a
 * broker name a missing {@code --bootstrap} alike.
 */
class KafkaOptionsHelpTest {
    private static final List<String> EXPECTED = List.of(
            "--bootstrap HOST:PORT Kafka bootstrap servers (HOST:PORT, comma-separated).",
            "--kafka-config FILE Kafka client properties file (TLS, SASL); --kafka options override it.",
            "--kafka KEY=VALUE Extra Kafka client property, e.g. security.protocol=SASL_SSL (repeatable).");

    @Test
    void captureProcessAndTopicsCheckShowTheSameKafkaOptions() {
        assertThat(kafkaOptions("capture", "--help")).containsExactlyInAnyOrderElementsOf(EXPECTED);
        assertThat(kafkaOptions("process", "--help")).containsExactlyInAnyOrderElementsOf(EXPECTED);
        assertThat(kafkaOptions("topics", "check", "--help")).containsExactlyInAnyOrderElementsOf(EXPECTED);
    }

    @Test
    void processAndTopicsCheckNameTheMissingBootstrapAlike() {
        CommandRun process = CommandRun.of("process", "--sites", "sites.yaml");
        CommandRun check = CommandRun.of("topics", "check");

        assertThat(process.exitCode()).isEqualTo(64);
        assertThat(check.exitCode()).isEqualTo(64);
        assertThat(process.err()).isEqualTo("siteflow process: Missing required option: '--bootstrap=HOST:PORT'\n"
                + "Try 'siteflow process --help' for more information.\n");
        assertThat(check.err()).isEqualTo("siteflow topics check: Missing required option: '--bootstrap=HOST:PORT'\n"
                + "Try 'siteflow topics check --help' for more information.\n");
    }

    /**
     * The help entries of the three options, in the order shown, each with its spaces collapsed. The help is
     * printed 200 columns wide, so that picocli does not wrap a description at a different word in each command.
     */
    private static List<String> kafkaOptions(String... args) {
        StringWriter out = new StringWriter();
        CommandLine cl = AgentMain.commandLine(new SiteflowCommand()).setUsageHelpWidth(200);
        cl.setOut(new PrintWriter(out, true));
        assertThat(cl.execute(args)).isZero();
        List<String> entries = new ArrayList<>();
        StringBuilder entry = null;
        for (String line : out.toString().split("\n")) {
            boolean startsOption = line.matches("\\s+(-\\w, )?--?[\\w-]+.*");
            if (startsOption || line.isBlank()) {
                if (entry != null) {
                    entries.add(entry.toString().trim().replaceAll("\\s+", " "));
                }
                entry = startsOption && line.matches("\\s+--(bootstrap|kafka|kafka-config)[= ].*")
                        ? new StringBuilder(line) : null;
            } else if (entry != null) {
                entry.append(' ').append(line);
            }
        }
        if (entry != null) {
            entries.add(entry.toString().trim().replaceAll("\\s+", " "));
        }
        return entries;
    }
}
