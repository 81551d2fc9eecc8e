package org.netpubsub.compiler.target.p4;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One P4Runtime table entry: per key field (by its P4 name) what it matches — a field left out is
 * don't-care — the priority (0 for exact and lpm tables, which have none), and the action with its
 * parameters (unsigned).
 */
public record P4TableEntry(
    String table,
    Map<String, KeyMatch> match,
    int priority,
    String action,
    Map<String, Long> params) {
  public P4TableEntry {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(action, "action");
    match = Collections.unmodifiableMap(new LinkedHashMap<>(match));
    params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
    if (priority < 0) {
      throw new IllegalArgumentException("priority " + priority + " is negative");
    }
  }
}
