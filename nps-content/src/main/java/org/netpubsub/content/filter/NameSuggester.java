package org.netpubsub.content.filter;

import java.util.List;
import java.util.Optional;

/** Finds the known name closest to a misspelt one (edit distance, transpositions count once). */
final class NameSuggester {
  private NameSuggester() {}

  /** The closest of {@code known} within a few edits of {@code wrong} (case ignored), if any. */
  static Optional<String> closest(String wrong, List<String> known) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String k : known) {
      int d = distance(wrong.toLowerCase(), k.toLowerCase());
      if (d < bestDistance) {
        best = k;
        bestDistance = d;
      }
    }
    // Short names are too easily "close" to anything; only case slips are suggested for them.
    int limit = Math.min(2, wrong.length() / 3);
    return bestDistance <= limit ? Optional.of(best) : Optional.empty();
  }

  /**
   * Optimal-string-alignment distance (insertions, deletions, substitutions, transpositions), or
   * just the length difference when that alone exceeds 2: a cheap lower bound that keeps a hostile
   * 60 KB name from costing a quadratic table.
   */
  static int distance(String a, String b) {
    if (Math.abs(a.length() - b.length()) > 2) {
      return Math.abs(a.length() - b.length());
    }
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
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }
}
