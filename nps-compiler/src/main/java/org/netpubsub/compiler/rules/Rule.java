package org.netpubsub.compiler.rules;

import java.util.Arrays;
import java.util.Objects;
import org.netpubsub.content.filter.Dnf;

/**
 * One packet subscription: a filter and where matching messages go ({@code FILTER : fwd(P, …)}).
 * Its id identifies it across recompilations (a rule file uses {@code line N}; the controller, the
 * subscription id); two rules with one id and different content are different versions.
 *
 * @param filter the text as written, for messages
 * @param dnf its normal form over the spec's schema
 * @param ports the output ports, sorted and distinct, each in [0, {@link #MAX_PORT}]
 */
public record Rule(String id, String filter, Dnf dnf, int[] ports) {
  /** Ports are action ids; larger ids are reserved for conditional (aggregate) actions. */
  public static final int MAX_PORT = (1 << 20) - 1;

  public Rule {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(filter, "filter");
    Objects.requireNonNull(dnf, "dnf");
    ports = Arrays.stream(ports).sorted().distinct().toArray();
    if (ports.length == 0) {
      throw new IllegalArgumentException("rule " + id + " forwards nowhere");
    }
    for (int p : ports) {
      if (p < 0 || p > MAX_PORT) {
        throw new IllegalArgumentException("port " + p + " is outside 0.." + MAX_PORT);
      }
    }
  }

  @Override
  public int[] ports() {
    return ports.clone();
  }

  /** Same id, same filter (normal form) and same ports. */
  public boolean sameAs(Rule o) {
    return id.equals(o.id) && dnf.equals(o.dnf) && Arrays.equals(ports, o.ports);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Rule r && sameAs(r) && filter.equals(r.filter);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, filter, Arrays.hashCode(ports));
  }

  @Override
  public String toString() {
    return filter
        + " : fwd("
        + String.join(", ", Arrays.stream(ports).mapToObj(String::valueOf).toList())
        + ")";
  }
}
