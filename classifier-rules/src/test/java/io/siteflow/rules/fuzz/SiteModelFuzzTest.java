package io.siteflow.rules.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.siteflow.rules.load.Diagnostic;
import io.siteflow.rules.load.LoadResult;
import io.siteflow.rules.load.SiteModelLoader;
import java.nio.charset.StandardCharsets;

/**
 * Fuzz harness for {@code sites.yaml} loading ({@link SiteModelLoader#parse}): any text gives a result, never an
 * exception; every diagnostic names the file, a line and a column from 1 and says what is wrong; a model is
 * built exactly when there is no error. Seeds: {@code src/test/resources/io/siteflow/rules/fuzz/
 * SiteModelFuzzTestInputs/}; docs/FUZZING.md.
 */
class SiteModelFuzzTest {

    @FuzzTest
    void loadsOrReportsEveryProblemWithItsPosition(byte[] yaml) {
        LoadResult result = SiteModelLoader.parse("sites.yaml", new String(yaml, StandardCharsets.UTF_8));

        for (Diagnostic d : result.diagnostics()) {
            assertThat(d.file()).isEqualTo("sites.yaml");
            assertThat(d.line()).as(d.toString()).isPositive();
            assertThat(d.column()).as(d.toString()).isPositive();
            assertThat(d.message()).as(d.toString()).isNotBlank();
        }
        assertThat(result.model().isPresent()).as(result.diagnostics().toString())
                .isEqualTo(result.errors().isEmpty());
    }
}
