package io.siteflow.cli.input.flowlog;

import io.siteflow.model.IpAddresses;

/** A field of a row that is missing or malformed: {@code field: message}; the reader adds {@code file:line: }. */
final class BadField extends Exception {
    BadField(String field, String message) {
        super(field + ": " + message, null, false, false);
    }

    /** {@code text} as a whole number in {@code min..max}. */
    static long number(String field, String text, long min, long max) throws BadField {
        if (text == null || text.isEmpty() || text.equals("-")) {
            throw new BadField(field, "missing");
        }
        long v;
        try {
            v = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new BadField(field, "\"" + text + "\" is not a number");
        }
        if (v < min || v > max) {
            throw new BadField(field, v + " is not " + min + "-" + max);
        }
        return v;
    }

    /** {@code text} as an IP address, in {@link IpAddresses#format} form. */
    static String address(String field, String text) throws BadField {
        if (text == null || text.isEmpty() || text.equals("-")) {
            throw new BadField(field, "missing");
        }
        try {
            long[] a = IpAddresses.parse(text);
            return IpAddresses.format(a[0], a[1]);
        } catch (IllegalArgumentException e) {
            throw new BadField(field, "\"" + text + "\" is not an IP address");
        }
    }
}
