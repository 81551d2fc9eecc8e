package org.netpubsub.compiler.aggregate;

import java.util.List;
import java.util.Objects;
import org.netpubsub.compiler.rules.Rule;

/**
 * A leaf action that forwards to {@code port} only when every condition holds once the message has
 * updated their windows. Its id is above {@link Rule#MAX_PORT}, so leaves mix it freely with plain
 * ports.
 *
 * @param rule the id of the rule it comes from
 */
public record ConditionalAction(int id, String rule, int port, List<Condition> conditions) {
  public ConditionalAction {
    Objects.requireNonNull(rule, "rule");
    conditions = List.copyOf(conditions);
    if (!ConditionalActions.isConditional(id)) {
      throw new IllegalArgumentException("conditional action ids start at " + (Rule.MAX_PORT + 1));
    }
    if (port < 0 || port > Rule.MAX_PORT) {
      throw new IllegalArgumentException("port " + port + " is outside 0.." + Rule.MAX_PORT);
    }
    if (conditions.isEmpty()) {
      throw new IllegalArgumentException("a conditional action needs a condition");
    }
  }
}
