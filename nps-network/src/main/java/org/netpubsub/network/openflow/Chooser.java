package org.netpubsub.network.openflow;

import java.util.ArrayList;
import java.util.List;

/**
 * Decides the points where OpenFlow leaves the switch a choice: which of several equally good
 * entries a lookup takes, which bucket a select group takes. {@link #DETERMINISTIC} takes the
 * simulated switch's own choice; {@link Script} replays and records choices, so that every possible
 * outcome can be enumerated (package-private).
 */
interface Chooser {
  /** Picks one of {@code n} &gt; 1 options; {@code preferred} is the switch's own pick. */
  int choose(int n, int preferred);

  Chooser DETERMINISTIC = (n, preferred) -> preferred;

  /** Takes the scripted choices, then option 0; records every choice point met. */
  final class Script implements Chooser {
    private final List<Integer> prefix;
    final List<Integer> taken = new ArrayList<>();
    final List<Integer> options = new ArrayList<>();

    Script(List<Integer> prefix) {
      this.prefix = prefix;
    }

    @Override
    public int choose(int n, int preferred) {
      int i = taken.size();
      int c = i < prefix.size() ? prefix.get(i) : 0;
      taken.add(c);
      options.add(n);
      return c;
    }

    /** The script of the next run in depth-first order over the choice tree, or null if done. */
    List<Integer> next() {
      for (int k = taken.size() - 1; k >= 0; k--) {
        if (taken.get(k) + 1 < options.get(k)) {
          List<Integer> next = new ArrayList<>(taken.subList(0, k));
          next.add(taken.get(k) + 1);
          return next;
        }
      }
      return null;
    }
  }
}
