package io.siteflow.rules.load;

import java.util.Collection;
import java.util.Optional;

/** Finds the valid name closest to a misspelt one (optimal string alignment distance). Thread-safe. */
final class KeySuggester {
    private KeySuggester() {
    }

    /**
     * The closest candidate: equal ignoring case, else one that contains the typo (3+ characters), else the
     * nearest within an edit distance of 1 (3-5 characters) or 2 (longer). Empty when none is close.
     */
    static Optional<String> nearest(String typo, Collection<String> candidates) {
        if (typo.length() >= 3) {
            for (String c : candidates) {
                if (!c.equalsIgnoreCase(typo) && c.toLowerCase(java.util.Locale.ROOT).contains(typo.toLowerCase(java.util.Locale.ROOT))) {
                    return Optional.of(c);
                }
            }
        }
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String c : candidates) {
            int d = c.equalsIgnoreCase(typo) ? 0 : distance(typo, c);
            if (d < bestDistance) {
                best = c;
                bestDistance = d;
            }
        }
        int limit = typo.length() <= 2 ? 0 : typo.length() <= 5 ? 1 : 2;
        return bestDistance <= limit ? Optional.of(best) : Optional.empty();
    }

    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                int v = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    v = Math.min(v, d[i - 2][j - 2] + 1);
                }
                d[i][j] = v;
            }
        }
        return d[a.length()][b.length()];
    }
}
