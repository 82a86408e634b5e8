package io.siteflow.processor.app;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads a duration option: a whole number with a unit ({@code 500ms}, {@code 10s}, {@code 1m}, {@code 2h},
 * {@code 30d}) or ISO-8601 ({@code PT1M}). Stateless.
 */
public final class DurationConverter implements ITypeConverter<Duration> {
    private static final Pattern SIMPLE = Pattern.compile("(\\d{1,12})(ms|s|m|h|d)");

    @Override
    public Duration convert(String value) {
        Matcher m = SIMPLE.matcher(value.trim());
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
        }
        try {
            return Duration.parse(value.trim());
        } catch (DateTimeParseException e) {
            throw new TypeConversionException("\"" + value + "\" is not a duration (e.g. 500ms, 10s, 1m, 2h, 30d)");
        }
    }
}
