package org.netpubsub.compiler.spec;

import java.util.Locale;

/**
 * How a field's table matches its value (Camus {@code query_field} / {@code query_field_exact}):
 * {@code EXACT} (SRAM; only {@code ==} and {@code !=} constraints), {@code RANGE} (ranges, TCAM
 * when they are not single values) or {@code LPM} (ranges expanded to prefixes).
 */
public enum MatchKind {
  EXACT,
  RANGE,
  LPM;

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The kind named {@code label} (exact, range, lpm); IllegalArgumentException otherwise. */
  public static MatchKind parse(String label) {
    for (MatchKind k : values()) {
      if (k.label().equals(label)) {
        return k;
      }
    }
    throw new IllegalArgumentException(
        "match kind must be exact, range or lpm, not '" + label + "'");
  }
}
