package org.netpubsub.network.openflow;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * An OpenFlow 1.3 flow-mod message: the command, the entry's fields, and the fields that select
 * entries for modify and delete (cookie mask, out_port, out_group; table {@link #ALL_TABLES} for
 * every table). {@code bufferId} is {@link #NO_BUFFER} unless a buffered packet is to be released.
 */
public record FlowMod(
    FlowModCommand command,
    int tableId,
    int priority,
    Match match,
    List<Instruction> instructions,
    long cookie,
    long cookieMask,
    Set<FlowFlag> flags,
    int idleTimeout,
    int hardTimeout,
    long outPort,
    long outGroup,
    long bufferId) {

  /** OFPTT_ALL: every table (delete and modify). */
  public static final int ALL_TABLES = 0xff;

  /** OFP_NO_BUFFER. */
  public static final long NO_BUFFER = 0xffffffffL;

  /** OFPG_ANY: no out_group filter. */
  public static final long ANY_GROUP = 0xffffffffL;

  public FlowMod {
    if (command == null || match == null) {
      throw new IllegalArgumentException("command and match are required");
    }
    if (tableId < 0 || tableId > 0xff) {
      throw new IllegalArgumentException("table id out of range: " + tableId);
    }
    checkU16(priority, "priority");
    checkU16(idleTimeout, "idle_timeout");
    checkU16(hardTimeout, "hard_timeout");
    instructions = Instruction.normalize(instructions);
    flags = flags.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(flags));
  }

  static void checkU16(int v, String field) {
    if (v < 0 || v > 0xffff) {
      throw new IllegalArgumentException(field + " must be in [0, 65535]: " + v);
    }
  }

  /** OFPFC_ADD of this entry. */
  public static FlowMod add(FlowEntry e) {
    return builder(FlowModCommand.ADD)
        .table(e.tableId())
        .priority(e.priority())
        .match(e.match())
        .instructions(e.instructions())
        .cookie(e.cookie())
        .flags(e.flags())
        .idleTimeout(e.idleTimeout())
        .hardTimeout(e.hardTimeout())
        .build();
  }

  /** OFPFC_DELETE_STRICT of exactly this entry (table, priority, match). */
  public static FlowMod deleteStrict(FlowEntry e) {
    return builder(FlowModCommand.DELETE_STRICT)
        .table(e.tableId())
        .priority(e.priority())
        .match(e.match())
        .build();
  }

  /** OFPFC_DELETE of every flow of every table. */
  public static FlowMod deleteAll() {
    return builder(FlowModCommand.DELETE).table(ALL_TABLES).build();
  }

  public static Builder builder(FlowModCommand command) {
    return new Builder(command);
  }

  /** The entry an ADD installs. */
  public FlowEntry toEntry() {
    return new FlowEntry(
        tableId, priority, match, instructions, cookie, flags, idleTimeout, hardTimeout);
  }

  /** True if the entry passes the cookie/mask filter of modify and delete. */
  public boolean cookieSelects(FlowEntry e) {
    return (e.cookie() & cookieMask) == (cookie & cookieMask);
  }

  /**
   * True if this delete takes the entry (OpenFlow 1.3 §6.4): its table (or every table); strict,
   * the same priority and an identical match, else a match at least as specific as the mod's; the
   * cookie under the mask; and the out_port and out_group filters.
   */
  public boolean deletes(FlowEntry e) {
    boolean matchSelects =
        command.isStrict()
            ? e.priority() == priority && e.match().equals(match)
            : match.covers(e.match());
    return (tableId == ALL_TABLES || tableId == e.tableId())
        && matchSelects
        && cookieSelects(e)
        && (outPort == OfPort.ANY || e.outputsTo(outPort))
        && (outGroup == ANY_GROUP || e.referencesGroup(outGroup));
  }

  /**
   * The message in ovs-ofctl syntax, prefixed by the command ({@code add}, {@code delete_strict}).
   */
  @Override
  public String toString() {
    return command.name().toLowerCase(java.util.Locale.ROOT) + " " + OvsFlowSyntax.flowMod(this);
  }

  /**
   * Builds a flow-mod; defaults: table 0, priority 0x8000, Match.ANY, no instructions, cookie and
   * mask 0, no flags or timeouts, out_port ANY, out_group ANY, no buffer.
   */
  public static final class Builder {
    private final FlowModCommand command;
    private int tableId;
    private int priority = FlowEntry.DEFAULT_PRIORITY;
    private Match match = Match.ANY;
    private final List<Instruction> instructions = new ArrayList<>();
    private long cookie;
    private long cookieMask;
    private final EnumSet<FlowFlag> flags = EnumSet.noneOf(FlowFlag.class);
    private int idleTimeout;
    private int hardTimeout;
    private long outPort = OfPort.ANY;
    private long outGroup = ANY_GROUP;
    private long bufferId = NO_BUFFER;

    private Builder(FlowModCommand command) {
      this.command = command;
    }

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

    public Builder instructions(List<? extends Instruction> list) {
      instructions.addAll(list);
      return this;
    }

    public Builder instructions(Instruction... list) {
      return instructions(List.of(list));
    }

    public Builder apply(Action... actions) {
      return instructions(Instruction.apply(actions));
    }

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

    /** Cookie filter of modify/delete: entries whose cookie agrees with {@code c} under mask. */
    public Builder cookie(long c, long mask) {
      cookie = c;
      cookieMask = mask;
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

    public Builder outPort(long port) {
      outPort = port;
      return this;
    }

    public Builder outGroup(long group) {
      outGroup = group;
      return this;
    }

    public Builder bufferId(long id) {
      bufferId = id;
      return this;
    }

    public FlowMod build() {
      return new FlowMod(
          command,
          tableId,
          priority,
          match,
          instructions,
          cookie,
          cookieMask,
          flags,
          idleTimeout,
          hardTimeout,
          outPort,
          outGroup,
          bufferId);
    }
  }
}
