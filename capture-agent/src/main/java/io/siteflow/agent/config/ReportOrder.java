package io.siteflow.agent.config;

import java.util.Arrays;
import java.util.stream.Collectors;

/** The text report's sort order, iftop's {@code -o}: by a rate column (largest first) or by a host (A to Z). */
public enum ReportOrder {
    /** {@code -o 2s}: the 2-second column, then 10 s, then 40 s. */
    TWO_SECONDS("2s", 0),
    /** {@code -o 10s} (the default): the 10-second column, then 40 s. */
    TEN_SECONDS("10s", 1),
    /** {@code -o 40s}: the 40-second column. */
    FORTY_SECONDS("40s", 2),
    /** {@code -o source}: the left host's address as text, then the 40-second column. */
    SOURCE("source", -1),
    /** {@code -o destination}: the right host's address as text, then the 40-second column. */
    DESTINATION("destination", -1);

    private final String flag;
    private final int firstColumn;

    ReportOrder(String flag, int firstColumn) {
        this.flag = flag;
        this.firstColumn = firstColumn;
    }

    /** The rate column (0 = 2 s, 1 = 10 s, 2 = 40 s) compared first; -1 for a host order. */
    public int firstColumn() {
        return firstColumn;
    }

    /** As written after {@code -o}. */
    public String flag() {
        return flag;
    }

    /**
     * The order written after {@code -o}.
     *
     * @throws IllegalArgumentException naming the value and the accepted ones
     */
    public static ReportOrder parse(String text) {
        for (ReportOrder o : values()) {
            if (o.flag.equals(text)) {
                return o;
            }
        }
        throw new IllegalArgumentException("-o " + text + ": must be one of "
                + Arrays.stream(values()).map(ReportOrder::flag).collect(Collectors.joining(", ")));
    }
}
