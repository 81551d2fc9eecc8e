package org.netpubsub.network.openflow;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A flow entry as a switch holds it and reports it in a flow-stats reply: table, priority, match,
 * instructions (normalized, {@link Instruction#normalize}), cookie, flags and timeouts (seconds, 0
 * = none).
 */
public record FlowEntry(
    int tableId,
    int priority,
    Match match,
    List<Instruction> instructions,
    long cookie,
    Set<FlowFlag> flags,
    int idleTimeout,
    int hardTimeout) {

  /** OFP_DEFAULT_PRIORITY. */
  public static final int DEFAULT_PRIORITY = 0x8000;

  public FlowEntry {
    if (tableId < 0 || tableId > 0xfe) {
      throw new IllegalArgumentException(
          "table id of a flow entry must be in [0, 254]: " + tableId);
    }
    FlowMod.checkU16(priority, "priority");
    FlowMod.checkU16(idleTimeout, "idle_timeout");
    FlowMod.checkU16(hardTimeout, "hard_timeout");
    if (match == null) {
      throw new IllegalArgumentException("match is required (Match.ANY matches everything)");
    }
    instructions = Instruction.normalize(instructions);
    flags = flags.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(flags));
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return new Builder()
        .table(tableId)
        .priority(priority)
        .match(match)
        .instructions(instructions)
        .cookie(cookie)
        .flags(flags)
        .idleTimeout(idleTimeout)
        .hardTimeout(hardTimeout);
  }

  /** This entry with other instructions (what a modify does). */
  public FlowEntry withInstructions(List<Instruction> newInstructions) {
    return new FlowEntry(
        tableId, priority, match, newInstructions, cookie, flags, idleTimeout, hardTimeout);
  }

  /** The actions of the apply-actions instruction (empty if none). */
  public List<Action> applyActions() {
    return find(Instruction.ApplyActions.class)
        .map(Instruction.ApplyActions::actions)
        .orElse(List.of());
  }

  /** The actions of the write-actions instruction (empty if none). */
  public List<Action> writeActions() {
    return find(Instruction.WriteActions.class)
        .map(Instruction.WriteActions::actions)
        .orElse(List.of());
  }

  public Optional<Integer> gotoTable() {
    return find(Instruction.GotoTable.class).map(Instruction.GotoTable::tableId);
  }

  private <T extends Instruction> Optional<T> find(Class<T> kind) {
    return instructions.stream().filter(kind::isInstance).map(kind::cast).findFirst();
  }

  /** Apply- then write-actions: every action the entry itself names (not those inside groups). */
  public List<Action> allActions() {
    List<Action> all = new ArrayList<>(applyActions());
    all.addAll(writeActions());
    return all;
  }

  /** True if an output action of the entry names {@code port} (the out_port filter of a delete). */
  public boolean outputsTo(long port) {
    return allActions().stream().anyMatch(a -> a instanceof Action.Output o && o.port() == port);
  }

  /** True if a group action of the entry names {@code groupId}. */
  public boolean referencesGroup(long groupId) {
    return allActions().stream()
        .anyMatch(a -> a instanceof Action.Group g && g.groupId() == groupId);
  }

  /** The entry in ovs-ofctl syntax, as {@code ovs-ofctl dump-flows --no-stats} would print it. */
  @Override
  public String toString() {
    return OvsFlowSyntax.flow(this);
  }

  /** Builds a flow entry; defaults: table 0, priority 0x8000, Match.ANY, no instructions (drop). */
  public static final class Builder {
    private int tableId;
    private int priority = DEFAULT_PRIORITY;
    private Match match = Match.ANY;
    private final List<Instruction> instructions = new ArrayList<>();
    private long cookie;
    private final EnumSet<FlowFlag> flags = EnumSet.noneOf(FlowFlag.class);
    private int idleTimeout;
    private int hardTimeout;

    private Builder() {}

    public Builder table(int id) {
      tableId = id;
      return this;
    }

    public Builder priority(int p) {
      priority = p;
      return this;
    }

    public Builder match(Match m) {
      match = m;
      return this;
    }

    /** Adds instructions (any order; they are put in execution order). */
    public Builder instructions(List<? extends Instruction> list) {
      instructions.addAll(list);
      return this;
    }

    public Builder instructions(Instruction... list) {
      return instructions(List.of(list));
    }

    /** Adds an apply-actions instruction. */
    public Builder apply(Action... actions) {
      return instructions(Instruction.apply(actions));
    }

    /** Adds a write-actions instruction. */
    public Builder write(Action... actions) {
      return instructions(Instruction.write(actions));
    }

    public Builder gotoTable(int table) {
      return instructions(Instruction.gotoTable(table));
    }

    public Builder writeMetadata(long value, long mask) {
      return instructions(Instruction.writeMetadata(value, mask));
    }

    public Builder cookie(long c) {
      cookie = c;
      return this;
    }

    public Builder flags(Set<FlowFlag> f) {
      flags.addAll(f);
      return this;
    }

    public Builder flag(FlowFlag f) {
      flags.add(f);
      return this;
    }

    public Builder idleTimeout(int seconds) {
      idleTimeout = seconds;
      return this;
    }

    public Builder hardTimeout(int seconds) {
      hardTimeout = seconds;
      return this;
    }

    public FlowEntry build() {
      return new FlowEntry(
          tableId, priority, match, instructions, cookie, flags, idleTimeout, hardTimeout);
    }
  }
}
