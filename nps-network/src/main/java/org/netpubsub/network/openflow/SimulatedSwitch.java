package org.netpubsub.network.openflow;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.LongPredicate;
import java.util.function.Predicate;

/**
 * An OpenFlow 1.3 switch in memory (Faucet's "fake OF table"): applies {@link FlowMod}s and {@link
 * GroupMod}s with the semantics and errors of Open vSwitch 3.1, reports its flows and groups as
 * flow-stats and group-desc replies would, and answers which ports, with which header rewrites, a
 * packet leaves by. Pure and single-threaded: time advances only through {@link #advanceClock}.
 */
public final class SimulatedSwitch {
  /** A lookup that enumerates more outcomes than this is refused (a pathological table). */
  static final int MAX_OUTCOME_RUNS = 100_000;

  private final SwitchConfig config;
  private final FlowTable[] tables;
  private final Map<Long, GroupEntry> groups = new TreeMap<>(Long::compareUnsigned);
  private final Set<Long> downPorts = new HashSet<>();
  private final LongPredicate portLive = p -> !downPorts.contains(p);
  private final List<FlowRemoved> flowRemoved = new ArrayList<>();
  private final Pipeline pipeline;
  private final List<Long> floodPorts;
  private long nextSequence;
  private long now;

  private SimulatedSwitch(SwitchConfig config) {
    this.config = config;
    this.tables = new FlowTable[config.numTables()];
    for (int i = 0; i < tables.length; i++) {
      tables[i] = new FlowTable();
    }
    this.pipeline = new Pipeline(PipelinePolicy.simulatedSwitch(config.missBehavior()));
    this.floodPorts = SwitchDatapath.floodPorts(config);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Applies a flow-mod; the error a switch would answer, or empty if it took effect. */
  public Optional<OpenFlowError> apply(FlowMod fm) {
    Optional<OpenFlowError> error = ModValidator.check(fm, config);
    if (error.isPresent()) {
      return error;
    }
    return switch (fm.command()) {
      case ADD -> add(fm);
      case MODIFY, MODIFY_STRICT -> modify(fm);
      case DELETE, DELETE_STRICT -> delete(fm);
    };
  }

  private Optional<OpenFlowError> add(FlowMod fm) {
    Optional<OpenFlowError> error = ModValidator.checkGroups(fm, groups::containsKey);
    if (error.isPresent()) {
      return error;
    }
    FlowTable t = tables[fm.tableId()];
    StoredFlow old = t.identical(fm.priority(), fm.match());
    if (old == null) {
      // An identical entry is replaced: it is neither an overlap nor a new entry (as OVS).
      if (fm.flags().contains(FlowFlag.CHECK_OVERLAP) && t.overlaps(fm.priority(), fm.match())) {
        return Optional.of(OpenFlowError.OFPFMFC_OVERLAP);
      }
      if (t.size() >= config.maxFlowsPerTable()) {
        return Optional.of(OpenFlowError.OFPFMFC_TABLE_FULL);
      }
    } else {
      t.remove(old);
    }
    t.insert(new StoredFlow(fm.toEntry(), nextSequence++, now));
    return Optional.empty();
  }

  /**
   * Replaces the instructions of the selected entries; cookie, flags and timeouts stay. Selecting
   * nothing is no error and adds nothing (OpenFlow 1.2+).
   */
  private Optional<OpenFlowError> modify(FlowMod fm) {
    List<StoredFlow> selected = new ArrayList<>();
    for (FlowTable t : selectedTables(fm)) {
      candidates(t, fm).stream().filter(f -> selects(fm, f.entry)).forEach(selected::add);
    }
    if (!selected.isEmpty()) {
      Optional<OpenFlowError> error = ModValidator.checkGroups(fm, groups::containsKey);
      if (error.isPresent()) {
        return error;
      }
    }
    for (StoredFlow f : selected) {
      f.entry = f.entry.withInstructions(fm.instructions());
      if (fm.flags().contains(FlowFlag.RESET_COUNTS)) {
        f.packetCount = 0;
      }
    }
    return Optional.empty();
  }

  private Optional<OpenFlowError> delete(FlowMod fm) {
    Predicate<StoredFlow> deletes = f -> fm.deletes(f.entry);
    for (FlowTable t : selectedTables(fm)) {
      if (fm.command().isStrict()) {
        StoredFlow f = t.identical(fm.priority(), fm.match());
        if (f != null && deletes.test(f)) {
          t.remove(f);
          notifyRemoved(List.of(f), FlowRemoved.Reason.DELETE);
        }
      } else {
        notifyRemoved(t.removeIf(deletes), FlowRemoved.Reason.DELETE);
      }
    }
    return Optional.empty();
  }

  /** A strict request selects at most the identical entry: no scan needed. */
  private static Collection<StoredFlow> candidates(FlowTable t, FlowMod fm) {
    if (!fm.command().isStrict()) {
      return t.all();
    }
    StoredFlow f = t.identical(fm.priority(), fm.match());
    return f == null ? List.of() : List.of(f);
  }

  private List<FlowTable> selectedTables(FlowMod fm) {
    return fm.tableId() == FlowMod.ALL_TABLES ? List.of(tables) : List.of(tables[fm.tableId()]);
  }

  /** Strict: same priority and identical match; else the request's match covers the entry's. */
  private static boolean selects(FlowMod fm, FlowEntry e) {
    boolean matchSelects =
        fm.command().isStrict()
            ? e.priority() == fm.priority() && e.match().equals(fm.match())
            : fm.match().covers(e.match());
    return matchSelects && fm.cookieSelects(e);
  }

  /** Applies a group-mod; the error a switch would answer, or empty if it took effect. */
  public Optional<OpenFlowError> apply(GroupMod gm) {
    Optional<OpenFlowError> error = ModValidator.check(gm);
    if (error.isPresent()) {
      return error;
    }
    switch (gm.command()) {
      case ADD -> {
        if (groups.containsKey(gm.groupId())) {
          return Optional.of(OpenFlowError.OFPGMFC_GROUP_EXISTS);
        }
        if (groups.size() >= config.maxGroups()) {
          return Optional.of(OpenFlowError.OFPGMFC_OUT_OF_GROUPS);
        }
        groups.put(gm.groupId(), gm.toEntry());
      }
      case MODIFY -> {
        if (!groups.containsKey(gm.groupId())) {
          return Optional.of(OpenFlowError.OFPGMFC_UNKNOWN_GROUP);
        }
        groups.put(gm.groupId(), gm.toEntry());
      }
      case DELETE -> {
        Collection<Long> ids =
            gm.groupId() == GroupEntry.ALL
                ? new ArrayList<>(groups.keySet())
                : groups.containsKey(gm.groupId()) ? List.of(gm.groupId()) : List.of();
        for (long id : ids) {
          groups.remove(id);
          // OF1.3 §6.5: deleting a group deletes the flows that forward to it (OVS does too;
          // groups that chain to it keep their now dangling bucket).
          removeFlows(f -> f.entry.referencesGroup(id), FlowRemoved.Reason.GROUP_DELETE);
        }
      }
    }
    return Optional.empty();
  }

  private void removeFlows(Predicate<StoredFlow> which, FlowRemoved.Reason reason) {
    for (FlowTable t : tables) {
      notifyRemoved(t.removeIf(which), reason);
    }
  }

  private void notifyRemoved(List<StoredFlow> removed, FlowRemoved.Reason reason) {
    for (StoredFlow f : removed) {
      if (f.entry.flags().contains(FlowFlag.SEND_FLOW_REM)) {
        flowRemoved.add(new FlowRemoved(f.entry, reason));
      }
    }
  }

  /** Every flow entry, by table, then priority (highest first), then age: a flow-stats reply. */
  public List<FlowEntry> flows() {
    List<FlowEntry> all = new ArrayList<>();
    for (FlowTable t : tables) {
      t.all().forEach(f -> all.add(f.entry));
    }
    return all;
  }

  /** The flow entries with their counters. */
  public List<FlowStats> flowStats() {
    List<FlowStats> all = new ArrayList<>();
    for (FlowTable t : tables) {
      t.all().forEach(f -> all.add(new FlowStats(f.entry, f.packetCount, now - f.installedAt)));
    }
    return all;
  }

  /** Every group by id: a group-desc reply. */
  public List<GroupEntry> groups() {
    return List.copyOf(groups.values());
  }

  /**
   * Where a packet entering by {@code inPort} goes, with the switch's own choices where OpenFlow
   * leaves one open (equal-priority entries: the oldest; select groups: by a header hash). A pure
   * query: counters and idle timers do not move.
   */
  public Forwarding forward(long inPort, PacketHeaders headers) {
    return run(inPort, headers, Chooser.DETERMINISTIC, null);
  }

  /** Like {@link #forward}, and the packet counts: counters and idle timers of hit entries move. */
  public Forwarding process(long inPort, PacketHeaders headers) {
    List<StoredFlow> hits = new ArrayList<>();
    Forwarding result = run(inPort, headers, Chooser.DETERMINISTIC, hits);
    for (StoredFlow f : hits) {
      f.packetCount++;
      f.lastUsedAt = now;
    }
    return result;
  }

  /**
   * Every forwarding an OpenFlow 1.3 switch holding these tables may produce for the packet: one
   * per choice of entry among equal-priority matches and of bucket in select groups. A real
   * switch's answer must be one of these.
   */
  public Set<Forwarding> possibleForwardings(long inPort, PacketHeaders headers) {
    Set<Forwarding> outcomes = new LinkedHashSet<>();
    List<Integer> script = List.of();
    for (int runs = 0; script != null; runs++) {
      if (runs >= MAX_OUTCOME_RUNS) {
        throw new IllegalStateException("more than " + MAX_OUTCOME_RUNS + " possible outcomes");
      }
      Chooser.Script chooser = new Chooser.Script(script);
      outcomes.add(run(inPort, headers, chooser, null));
      script = chooser.next();
    }
    return outcomes;
  }

  /** One packet through the pipeline; {@code hits} (if not null) receives every entry hit. */
  private Forwarding run(long inPort, PacketHeaders h, Chooser chooser, List<StoredFlow> hits) {
    SwitchDatapath d =
        new SwitchDatapath(config, tables, groups, portLive, floodPorts, chooser, hits);
    Pipeline.Outcome o = pipeline.run(d, inPort, h, chooser);
    return o.translationFailed() ? Forwarding.FAILED : Forwarding.of(o.egresses());
  }

  /** Marks a port live or down (the liveness fast-failover and select buckets watch). */
  public void setPortLive(long port, boolean live) {
    if (live) {
      downPorts.remove(port);
    } else {
      downPorts.add(port);
    }
  }

  /** The physical ports (LOCAL not included). */
  public Set<Long> ports() {
    return config.ports();
  }

  /** The switch's clock, in seconds. */
  public long now() {
    return now;
  }

  /**
   * Moves the switch's clock to {@code nowSeconds} and expires the entries whose hard timeout
   * (since installation) or idle timeout (since the last packet, {@link #process}) has passed.
   */
  public void advanceClock(long nowSeconds) {
    if (nowSeconds < now) {
      throw new IllegalArgumentException(
          "the clock only moves forward: " + nowSeconds + " < " + now);
    }
    now = nowSeconds;
    removeFlows(
        f -> f.entry.hardTimeout() > 0 && now - f.installedAt >= f.entry.hardTimeout(),
        FlowRemoved.Reason.HARD_TIMEOUT);
    removeFlows(
        f -> f.entry.idleTimeout() > 0 && now - f.lastUsedAt >= f.entry.idleTimeout(),
        FlowRemoved.Reason.IDLE_TIMEOUT);
  }

  /** The flow-removed messages sent since the last call (entries with SEND_FLOW_REM only). */
  public List<FlowRemoved> drainFlowRemoved() {
    List<FlowRemoved> out = List.copyOf(flowRemoved);
    flowRemoved.clear();
    return out;
  }

  /**
   * Configures a simulated switch. Defaults: no physical ports, a LOCAL port, 254 tables (0..253,
   * as OVS), no limit on flows per table or groups, {@link TableMissBehavior#EXECUTE_ACTION_SET}.
   */
  public static final class Builder {
    private final Set<Long> ports = new TreeSet<>();
    private boolean localPort = true;
    private int numTables = 254;
    private int maxFlowsPerTable = Integer.MAX_VALUE;
    private int maxGroups = Integer.MAX_VALUE;
    private TableMissBehavior missBehavior = TableMissBehavior.EXECUTE_ACTION_SET;

    private Builder() {}

    /** Adds physical ports (1..0xfffffeff). */
    public Builder ports(long... numbers) {
      for (long p : numbers) {
        if (p < 1 || p >= OfPort.MAX) {
          throw new IllegalArgumentException("not a physical port number: " + p);
        }
        ports.add(p);
      }
      return this;
    }

    public Builder localPort(boolean present) {
      localPort = present;
      return this;
    }

    public Builder numTables(int n) {
      if (n < 1 || n > 254) {
        throw new IllegalArgumentException("tables must number 1..254: " + n);
      }
      numTables = n;
      return this;
    }

    /** Beyond this many entries in a table, an ADD fails with OFPFMFC_TABLE_FULL. */
    public Builder maxFlowsPerTable(int n) {
      maxFlowsPerTable = n;
      return this;
    }

    /** Beyond this many groups, an ADD fails with OFPGMFC_OUT_OF_GROUPS. */
    public Builder maxGroups(int n) {
      maxGroups = n;
      return this;
    }

    public Builder missBehavior(TableMissBehavior b) {
      missBehavior = b;
      return this;
    }

    public SimulatedSwitch build() {
      return new SimulatedSwitch(
          new SwitchConfig(
              Set.copyOf(ports), localPort, numTables, maxFlowsPerTable, maxGroups, missBehavior));
    }
  }
}
