package io.siteflow.cli.input.flowlog;

import java.util.List;

/**
 * What reading one file of flow records or flow-log rows gave.
 *
 * @param problems what was not read ({@code file:line: field: message}), one each; empty when all was read
 * @param notes    what was read and left out on purpose (REJECT rows, rows logged twice), for standard error
 * @param records  flow records given on
 * @param packets  packets in those records, both directions
 */
public record ReadResult(List<String> problems, List<String> notes, long records, long packets) {
    public ReadResult {
        problems = List.copyOf(problems);
        notes = List.copyOf(notes);
    }
}
