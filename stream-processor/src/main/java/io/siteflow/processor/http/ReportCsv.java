package io.siteflow.processor.http;

import io.siteflow.rules.model.Category;
import java.util.stream.Collectors;

/**
 * {@link PeriodReport} as CSV (RFC 4180, comma, CRLF): one row per audited pair, a column per category
 * (bytes, 0 when absent), the addresses as {@code address=bytes} separated by spaces, largest first.
 * Text fields that start with {@code = + - @} get a leading {@code '}. Fields that hold a comma, quote or line break are quoted. Stateless.
 */
public final class ReportCsv {
    private ReportCsv() {
    }

    public static String write(PeriodReport r) {
        StringBuilder b = new StringBuilder(256 + 256 * r.servers().size());
        b.append("server,name,site,remoteSite,verdict,dbShare,threshold,crossBytes,windows,pass,fail,insufficient");
        for (Category c : Category.all()) {
            b.append(',').append(c.name());
        }
        b.append(",rttP50Micros,rttP95Micros,rttMaxMicros,rttSamples,addresses\r\n");
        for (PeriodReport.Row row : r.servers()) {
            b.append(field(row.server())).append(',').append(field(row.name())).append(',')
                    .append(field(row.site())).append(',').append(field(row.remoteSite())).append(',')
                    .append(row.verdict()).append(',').append(row.dbShare().toPlainString()).append(',')
                    .append(row.threshold().toPlainString()).append(',').append(row.crossBytes()).append(',')
                    .append(row.windows()).append(',').append(row.windowVerdicts().get("PASS")).append(',')
                    .append(row.windowVerdicts().get("FAIL")).append(',')
                    .append(row.windowVerdicts().get("INSUFFICIENT"));
            for (Category c : Category.all()) {
                b.append(',').append(row.categories().getOrDefault(c.name(), 0L));
            }
            b.append(',').append(row.rttMicros().p50()).append(',').append(row.rttMicros().p95()).append(',')
                    .append(row.rttMicros().max()).append(',').append(row.rttMicros().samples()).append(',')
                    .append(field(row.addresses().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                            .collect(Collectors.joining(" "))))
                    .append("\r\n");
        }
        return b.toString();
    }

    /** Quotes when needed; a leading {@code = + - @} gets a {@code '} so spreadsheets show text, not a formula. */
    static String field(String s) {
        if (!s.isEmpty() && "=+-@".indexOf(s.charAt(0)) >= 0) {
            s = "'" + s;
        }
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }
}
