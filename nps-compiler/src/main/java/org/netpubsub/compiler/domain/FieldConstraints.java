package org.netpubsub.compiler.domain;

import java.util.Arrays;
import java.util.Objects;

/**
 * What one conjunction demands of each query field: a set of field values, or null where it does
 * not constrain the field. {@code exact} is false when some constraint could only be widened (a
 * superset: an attribute that is no query field, a string suffix, a string longer than its field);
 * the pipeline then forwards more than the filter matches, never less.
 */
public record FieldConstraints(IntervalSet[] fields, boolean exact) {
  public FieldConstraints {
    Objects.requireNonNull(fields, "fields");
    fields = fields.clone();
  }

  /** The values allowed for field {@code f}, or null for any. */
  public IntervalSet field(int f) {
    return fields[f];
  }

  /** Whether some field allows no value at all (the conjunction never matches). */
  public boolean isUnsatisfiable() {
    for (IntervalSet s : fields) {
      if (s != null && s.isEmpty()) {
        return true;
      }
    }
    return false;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FieldConstraints c && exact == c.exact && Arrays.equals(fields, c.fields);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(fields) + Boolean.hashCode(exact);
  }

  @Override
  public String toString() {
    return Arrays.toString(fields) + (exact ? "" : " (widened)");
  }
}
