package io.siteflow.model;

/**
 * The one test for "a number written in digits" before {@code Integer.parseInt}: only ASCII {@code 0-9}.
 * {@link Character#isDigit} also accepts Arabic-Indic, Devanagari and other digits, which {@code parseInt} reads
 * too, so a port written {@code ١٥٢١} would pass as 1521 and print back differently.
 */
public final class Digits {
    private Digits() {
    }

    /** Whether {@code s} is not empty and holds only ASCII digits. */
    public static boolean ascii(CharSequence s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }
}
