package org.netpubsub.compiler.pipeline;

import java.util.Arrays;

/**
 * A multicast group: one per distinct set of actions a leaf asks for (Camus: one group per port
 * set). Actions are the compiler's action ids; for plain rules they are the output ports.
 */
public record Group(int id, int[] actions) {
  public Group {
    actions = actions.clone();
  }

  @Override
  public int[] actions() {
    return actions.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Group g && id == g.id && Arrays.equals(actions, g.actions);
  }

  @Override
  public int hashCode() {
    return 31 * id + Arrays.hashCode(actions);
  }

  @Override
  public String toString() {
    return "group " + id + " " + Arrays.toString(actions);
  }
}
