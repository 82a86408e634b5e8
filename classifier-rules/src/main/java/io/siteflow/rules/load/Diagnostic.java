package io.siteflow.rules.load;

import java.util.Objects;

/**
 * One problem found in a site model. {@link #toString()} gives the report line:
 * {@code sites.yaml:14:9: rules[2].ports[1]: "70001" is not a port (1-65535)} for an error and
 * {@code sites.yaml:20:5: warning: rules[4]: ...} for a warning; the key path part is left out when empty.
 *
 * @param severity error or warning
 * @param file     file name as given to the loader
 * @param line     1-based line
 * @param column   1-based column
 * @param path     key path such as {@code rules[2].ports[1]}, may be empty
 * @param message  what is wrong
 */
public record Diagnostic(Severity severity, String file, int line, int column, String path, String message) {

    /** How bad a problem is. Errors stop the model from loading, warnings do not. */
    public enum Severity { ERROR, WARNING }

    public Diagnostic {
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(message, "message");
    }

    public boolean isError() {
        return severity == Severity.ERROR;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(file).append(':').append(line).append(':').append(column).append(": ");
        if (severity == Severity.WARNING) {
            sb.append("warning: ");
        }
        if (!path.isEmpty()) {
            sb.append(path).append(": ");
        }
        return sb.append(message).toString();
    }
}
