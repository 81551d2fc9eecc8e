package org.netpubsub.content.workload;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Stock symbols for the ITCH model: well-known Nasdaq tickers first (GOOGL, the symbol of the Camus
 * examples, is rank 1), then synthetic 3–5 letter tickers from a fixed seed. The list does not
 * depend on the workload seed, so symbol rank r is the same symbol in every workload.
 */
final class Tickers {
  /** More than enough for any experiment; about 0.8 % of the 3–5 letter space. */
  static final int MAX = 100_000;

  private static final List<String> REAL =
      List.of(
          "GOOGL", "AAPL", "MSFT", "AMZN", "META", "NVDA", "TSLA", "NFLX", "INTC", "CSCO", "ADBE",
          "ORCL", "IBM", "QCOM", "AMD", "PYPL", "SBUX", "COST", "PEP", "AVGO", "TXN", "AMGN",
          "GILD", "BKNG", "MU", "GOOG", "CMCSA", "INTU", "ISRG", "MDLZ", "ADP", "REGN", "VRTX",
          "ATVI", "CSX", "ADI", "MAR", "KDP", "MNST", "LRCX", "ILMN", "EBAY", "CTSH", "ORLY", "WBA",
          "EA", "BIIB", "ROST", "KLAC", "PAYX");

  /** A fixed seed, so that the synthetic tickers never change. */
  private static final long SYNTHETIC_SEED = 0x5EED_17C4L;

  private Tickers() {}

  /** The first {@code count} symbols. */
  static List<String> first(int count) {
    if (count < 1 || count > MAX) {
      throw new IllegalArgumentException("symbols must be in [1, " + MAX + "], got " + count);
    }
    LinkedHashSet<String> out = new LinkedHashSet<>(REAL.subList(0, Math.min(count, REAL.size())));
    Rand rng = new Rand(SYNTHETIC_SEED);
    char[] letters = new char[5];
    while (out.size() < count) {
      int length = 3 + rng.belowInt(3);
      for (int i = 0; i < length; i++) {
        letters[i] = (char) ('A' + rng.belowInt(26));
      }
      out.add(new String(letters, 0, length)); // a repeat (or a real ticker) is simply skipped
    }
    return new ArrayList<>(out);
  }
}
