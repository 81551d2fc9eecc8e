package org.netpubsub.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * {@code /health/live} and {@code /health/ready}. Live answers 200 whenever the server answers at
 * all. Ready answers 200 when every named check holds, else 503; both list the checks by name.
 */
final class Health {
  record Check(String name, BooleanSupplier holds) {}

  private final List<Check> checks;

  Health(List<Check> checks) {
    this.checks = List.copyOf(checks);
  }

  Reply live() {
    return Reply.ok(Json.MAPPER.createObjectNode().put("status", "live"));
  }

  Reply ready() {
    ObjectNode root = Json.MAPPER.createObjectNode();
    ObjectNode each = Json.MAPPER.createObjectNode();
    boolean all = true;
    for (Check c : checks) {
      boolean ok;
      try {
        ok = c.holds().getAsBoolean();
      } catch (RuntimeException e) {
        ok = false; // a check that cannot tell is not ready
      }
      each.put(c.name(), ok);
      all &= ok;
    }
    root.put("status", all ? "ready" : "not_ready");
    root.set("checks", each);
    return new Reply(all ? 200 : 503, root);
  }
}
