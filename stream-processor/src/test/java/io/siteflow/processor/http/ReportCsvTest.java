package io.siteflow.processor.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ReportCsvTest {
    @Test
    void quotesFieldsWithCommasQuotesAndLineBreaks() {
        assertThat(ReportCsv.field("wls3")).isEqualTo("wls3");
        assertThat(ReportCsv.field("a,b")).isEqualTo("\"a,b\"");
        assertThat(ReportCsv.field("say \"hi\"")).isEqualTo("\"say \"\"hi\"\"\"");
        assertThat(ReportCsv.field("two\nlines")).isEqualTo("\"two\nlines\"");
    }

    @Test
    void aNameThatLooksLikeAFormulaStaysText() {
        assertThat(ReportCsv.field("=HYPERLINK(\"x\")")).isEqualTo("\"'=HYPERLINK(\"\"x\"\")\"");
        assertThat(ReportCsv.field("@sum")).isEqualTo("'@sum");
        assertThat(ReportCsv.field("-1")).isEqualTo("'-1");
    }
}
