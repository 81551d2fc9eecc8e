package org.netpubsub.network.openflow;

import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

/**
 * An OpenFlow 1.3 instruction. A flow carries at most one of each kind, and a switch executes them
 * in the fixed order of OF1.3 §5.9 whatever order they were sent in: apply-actions, clear-actions,
 * write-actions, write-metadata, goto-table ({@link #normalize}).
 */
public sealed interface Instruction {

  /** The position of this kind in the execution order of OF1.3 §5.9. */
  int order();

  /** Execute these actions now, in order, on the packet. */
  record ApplyActions(List<Action> actions) implements Instruction {
    public ApplyActions {
      actions = List.copyOf(actions);
    }

    @Override
    public int order() {
      return 0;
    }
  }

  /** Empty the action set. */
  record ClearActions() implements Instruction {
    @Override
    public int order() {
      return 1;
    }
  }

  /** Merge these actions into the action set (one per {@link Action#actionSetKey}, last wins). */
  record WriteActions(List<Action> actions) implements Instruction {
    public WriteActions {
      actions = List.copyOf(actions);
    }

    @Override
    public int order() {
      return 2;
    }
  }

  /** metadata = (metadata &amp; ~mask) | (value &amp; mask). */
  record WriteMetadata(long value, long mask) implements Instruction {
    public WriteMetadata {
      value &= mask;
    }

    @Override
    public int order() {
      return 3;
    }
  }

  /** Continue in a later table. */
  record GotoTable(int tableId) implements Instruction {
    public GotoTable {
      if (tableId < 0 || tableId > 0xff) {
        throw new IllegalArgumentException("table id out of range: " + tableId);
      }
    }

    @Override
    public int order() {
      return 4;
    }
  }

  static ApplyActions apply(Action... actions) {
    return new ApplyActions(List.of(actions));
  }

  static WriteActions write(Action... actions) {
    return new WriteActions(List.of(actions));
  }

  static GotoTable gotoTable(int tableId) {
    return new GotoTable(tableId);
  }

  static WriteMetadata writeMetadata(long value, long mask) {
    return new WriteMetadata(value, mask);
  }

  static ClearActions clearActions() {
    return new ClearActions();
  }

  /**
   * The instructions in execution order, without empty apply/write-actions (they do nothing, and
   * switches do not keep them). Two of one kind is malformed: IllegalArgumentException.
   */
  static List<Instruction> normalize(List<Instruction> instructions) {
    // Plain loops: every flow entry and flow-mod passes here, with one or two instructions, and a
    // content flow-mod passes three times (entry, flow-mod, the switch's stored entry): a list
    // already in normal form comes back as it is, uncopied when immutable.
    if (isNormal(instructions)) {
      return List.copyOf(instructions);
    }
    Instruction[] out = new Instruction[instructions.size()];
    int n = 0;
    for (Instruction i : instructions) {
      if (i == null) {
        throw new IllegalArgumentException("null instruction");
      }
      for (int j = 0; j < n; j++) {
        if (out[j].order() == i.order()) {
          throw new IllegalArgumentException(
              "at most one instruction of each kind (OpenFlow 1.3 §5.9): " + instructions);
        }
      }
      boolean empty =
          (i instanceof ApplyActions a && a.actions().isEmpty())
              || (i instanceof WriteActions w && w.actions().isEmpty());
      if (!empty) {
        int at = n++;
        for (; at > 0 && out[at - 1].order() > i.order(); at--) {
          out[at] = out[at - 1]; // insertion sort by order (orders are distinct)
        }
        out[at] = i;
      }
    }
    return n == out.length ? List.of(out) : List.of(Arrays.copyOf(out, n));
  }

  /** In execution order, one of each kind at most, no empty action list, no null. */
  private static boolean isNormal(List<Instruction> instructions) {
    if (!(instructions instanceof RandomAccess)) {
      return false;
    }
    int previous = -1;
    for (int k = 0, size = instructions.size(); k < size; k++) {
      Instruction i = instructions.get(k);
      if (i == null
          || i.order() <= previous
          || (i instanceof ApplyActions a && a.actions().isEmpty())
          || (i instanceof WriteActions w && w.actions().isEmpty())) {
        return false;
      }
      previous = i.order();
    }
    return true;
  }
}
