package org.netpubsub.compiler.target.p4;

import java.util.Collection;
import java.util.Locale;
import org.netpubsub.compiler.pipeline.FieldEntry;
import org.netpubsub.compiler.pipeline.Match;
import org.netpubsub.compiler.spec.QueryField;

/**
 * The P4 match kind of a field's key. A range field's table matches {@code range}; an lpm field's
 * {@code lpm} (ranges as prefixes; the longest prefix wins, so no priorities); an exact field's
 * {@code exact} (SRAM) unless its table has default entries (a state's "any other value"), which
 * only a {@code ternary} key with priorities can hold below the value entries.
 */
public enum KeyKind {
  EXACT,
  TERNARY,
  RANGE,
  LPM;

  /** The key kind of field {@code q} given its table's entries. */
  public static KeyKind of(QueryField q, Collection<FieldEntry> entries) {
    return switch (q.match()) {
      case RANGE -> RANGE;
      case LPM -> LPM;
      case EXACT ->
          entries.stream().anyMatch(e -> !(e.match() instanceof Match.Value)) ? TERNARY : EXACT;
    };
  }

  /** The P4 and P4Runtime JSON name: exact, ternary, range, lpm. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Whether entries of a table with this key carry a priority (P4Runtime: ternary, range). */
  public boolean needsPriority() {
    return this == TERNARY || this == RANGE;
  }

  public static KeyKind parse(String label) {
    for (KeyKind k : values()) {
      if (k.label().equals(label)) {
        return k;
      }
    }
    throw new IllegalArgumentException(
        "match kind must be exact, ternary, range or lpm, not '" + label + "'");
  }
}
