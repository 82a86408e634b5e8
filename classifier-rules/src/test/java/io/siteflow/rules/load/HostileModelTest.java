package io.siteflow.rules.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.siteflow.rules.model.SiteModel;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Site models a hostile-input probe tried (issue 17): each is refused early, with a short, exact message. */
class HostileModelTest {
    @TempDir
    Path dir;

    private static List<String> messages(String yaml) {
        return SiteModelLoader.parse("sites.yaml", yaml).diagnostics().stream().map(Diagnostic::toString).toList();
    }

    @Test
    void refusesAThresholdWithMoreThanSixDecimalPlaces() {
        assertThat(messages("threshold: 0.9e-300000000\nsites: {}\n")).containsExactly(
                "sites.yaml:1:12: threshold: \"0.9e-300000000\" has more than 6 decimal places (a share such as 0.95)");
        assertThat(messages("threshold: 0.0000001\nsites: {}\n")).containsExactly(
                "sites.yaml:1:12: threshold: \"0.0000001\" has more than 6 decimal places (a share such as 0.95)");
    }

    @Test
    void keepsAThresholdOfSixDecimalPlacesAndDropsManyTrailingZeros() throws SiteModelException {
        SiteModel six = SiteModelLoader.parse("s.yaml", "threshold: 0.999999\nsites: {}\n").orThrow();
        SiteModel zeros = SiteModelLoader.parse("s.yaml", "threshold: 0.95000000000000000000\nsites: {}\n").orThrow();
        SiteModel exponent = SiteModelLoader.parse("s.yaml", "threshold: 0E+5\nsites: {}\n").orThrow();

        assertThat(six.threshold().toPlainString()).isEqualTo("0.999999");
        assertThat(zeros.threshold().toPlainString()).isEqualTo("0.95");
        assertThat(exponent.threshold()).isEqualTo(BigDecimal.ZERO);
    }

    @Test
    void refusesALineLongerThan64KiCharactersBeforeParsingIt() {
        String yaml = "sites: {}\n# " + "x".repeat(70_000) + "\n";

        assertThat(messages(yaml)).containsExactly("sites.yaml:2:65537: line is longer than 65536 characters (70002)");
    }

    @Test
    void quotesALongValueCutWithItsLength() {
        String value = "a".repeat(50) + "b".repeat(50);

        assertThat(messages("defaults: " + value + "\nsites: {}\n")).containsExactly("sites.yaml:1:11: defaults: \""
                + "a".repeat(32) + "..." + "b".repeat(16) + "\" (100 characters) is not a default rule set (fmw or none)");
    }

    @Test
    void namesTheByteOffsetOfInvalidUtf8() throws IOException {
        Path f = dir.resolve("sites.yaml");
        byte[] text = "sites: {}\n# caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1);
        Files.write(f, text);

        assertThatThrownBy(() -> SiteModelLoader.load(f)).isInstanceOf(IOException.class)
                .hasMessage("byte 15: 0xE9 is not UTF-8 (a site model must be UTF-8)");
    }

    @Test
    void refusesUtf16WithAndWithoutAByteOrderMark() throws IOException {
        Path bom = Files.write(dir.resolve("bom.yaml"), "sites: {}\n".getBytes(StandardCharsets.UTF_16));
        Path le = Files.write(dir.resolve("le.yaml"), "sites: {}\n".getBytes(StandardCharsets.UTF_16LE));

        assertThatThrownBy(() -> SiteModelLoader.load(bom)).isInstanceOf(IOException.class)
                .hasMessage("byte 0: UTF-16 byte order mark (0xFE 0xFF): a site model must be UTF-8");
        assertThatThrownBy(() -> SiteModelLoader.load(le)).isInstanceOf(IOException.class)
                .hasMessage("byte 1: 0x00 (UTF-16 without a byte order mark?): a site model must be UTF-8");
    }

    @Test
    void readsUtf8WithAByteOrderMark() throws IOException {
        Path f = Files.write(dir.resolve("sites.yaml"), ("\uFEFFsites:\n  caf\u00e9: { cidrs: [10.0.0.0/8] }\n")
                .getBytes(StandardCharsets.UTF_8));

        assertThat(SiteModelLoader.read(f)).isEqualTo("sites:\n  caf\u00e9: { cidrs: [10.0.0.0/8] }\n");
    }

    @Test
    void checksShadowingUpToItsBudgetAndSaysWhereItStopped() {
        StringBuilder yaml = new StringBuilder("defaults: none\nsites:\n  a: { cidrs: [10.1.0.0/16] }\nrules:\n");
        for (int i = 0; i < 2100; i++) {
            yaml.append("  - { name: r").append(i).append(", category: DB, ports: [").append(i + 1).append("] }\n");
        }
        yaml.append("  - { name: copy, category: DB, ports: [1] }\n");

        // rule j is compared with the j before it: after rules[2000], 2,001,000 pairs
        assertThat(messages(yaml.toString())).containsExactly("sites.yaml:2005:5: warning: rules[2000]: this rule "
                + "and the ones after it were not checked for rules that never match (2101 rules; the check "
                + "compares at most 2000000 pairs)");
    }

    @Test
    void comparesOnlyWithEarlierRulesWhoseKindsOfConditionTheLaterOneHas() {
        StringBuilder yaml = new StringBuilder("defaults: none\nsites:\n  a: { cidrs: [10.1.0.0/16] }\nrules:\n");
        for (int i = 0; i < 1300; i++) {
            yaml.append("  - { name: r").append(i).append(", category: DB, ports: [").append(i + 1)
                    .append("], proto: [tcp] }\n");
        }
        for (int i = 0; i < 1300; i++) {
            yaml.append("  - { name: p").append(i).append(", category: DB, ports: [").append(i + 1).append("] }\n");
        }
        yaml.append("  - { name: copy, category: DB, ports: [1] }\n");

        // 2 x 844,350 pairs compared instead of 2601 x 2600 / 2 = 3,381,300: within the budget
        assertThat(messages(yaml.toString())).containsExactly("sites.yaml:2605:5: warning: rules[2600]: rule "
                + "\"copy\" never matches: rules[1300] (\"p0\") matches every flow it would");
    }
}
