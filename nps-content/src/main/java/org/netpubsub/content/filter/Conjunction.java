package org.netpubsub.content.filter;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * A conjunction in canonical form: at most one {@link AttributeConstraint} per attribute, plus the
 * aggregate atoms. A conjunction with no constraints and no aggregates is {@code true}.
 */
public interface Conjunction {
  /** The constraint on the attribute at {@code position}, if this conjunction has one. */
  Optional<AttributeConstraint> constraint(int position);

  /** All attribute constraints, by attribute position. */
  Collection<AttributeConstraint> constraints();

  /** Aggregate atoms (stateful), in a canonical order. */
  List<Filter.Aggregate> aggregates();
}
