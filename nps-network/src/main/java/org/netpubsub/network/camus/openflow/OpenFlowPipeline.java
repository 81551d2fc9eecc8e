package org.netpubsub.network.camus.openflow;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.IntFunction;
import org.netpubsub.compiler.pipeline.FieldEntry;
import org.netpubsub.compiler.pipeline.Group;
import org.netpubsub.compiler.pipeline.LeafEntry;
import org.netpubsub.compiler.pipeline.Match;
import org.netpubsub.compiler.pipeline.Pipeline;
import org.netpubsub.compiler.pipeline.PipelineDiff;
import org.netpubsub.compiler.pipeline.Tcam;
import org.netpubsub.network.camus.LocalRules;
import org.netpubsub.network.layout.SwitchLayout;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.Bucket;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.GroupMod;
import org.netpubsub.network.openflow.GroupType;
import org.netpubsub.network.openflow.MaskedIpv6;
import org.netpubsub.network.openflow.MaskedLong;
import org.netpubsub.network.openflow.PacketHeaders;

/**
 * A compiled pipeline as OpenFlow 1.3 tables (Camus target 2, as Open vSwitch runs it):
 *
 * <ul>
 *   <li>table 0: UDP to the event port at {@code ff0e::/16} goes to the first field table;
 *   <li>one table per carried field, from {@link Config#firstTable}: an entry matches the BDD state
 *       in the metadata and the field's bits of the IPv6 destination ({@link QueryAddressLayout}),
 *       writes the next state and goes on; a range is one flow per prefix of its expansion; a
 *       state's default entry has the lower priority; a miss goes on with the state unchanged;
 *   <li>the leaf table: the final state's entry applies its group; a miss drops;
 *   <li>groups of type ALL, one per distinct action set, one bucket per action.
 * </ul>
 *
 * The state lives in the low {@link Config#stateBits} bits of the metadata, starting at 0. Pure: it
 * only builds flow entries, groups and the messages that turn one pipeline into the next.
 */
public final class OpenFlowPipeline {
  /**
   * @param entryPriority the table-0 flow's priority (above other apps' flows for the prefix)
   * @param firstTable the first field table; the leaf table follows the field tables
   * @param stateBits metadata bits for the state (the pipeline's own need must fit)
   * @param cookie marks every flow of this pipeline
   * @param groupBase group ids are the compiler's plus this
   * @param eventPort the UDP destination port of events
   * @param buckets the actions of the bucket for one action id (an output, a rewrite …)
   * @param upAction the action id of the logical up port (Camus §4), or −1 for none
   * @param upPorts the physical up ports a message for {@code upAction} may leave by
   */
  public record Config(
      int entryPriority,
      int firstTable,
      int stateBits,
      long cookie,
      long groupBase,
      int eventPort,
      IntFunction<List<Action>> buckets,
      int upAction,
      List<Long> upPorts) {
    public Config {
      Objects.requireNonNull(buckets, "buckets");
      upPorts = List.copyOf(upPorts);
      if (firstTable < 1 || stateBits < 1 || stateBits > 32) {
        throw new IllegalArgumentException("first table ≥ 1 and 1..32 state bits, please");
      }
      if (upAction >= 0 && upPorts.isEmpty()) {
        throw new IllegalArgumentException("a logical up port needs physical up ports");
      }
    }

    /**
     * The Camus engine's pipeline on a switch: its band of the switch layout, 32 state bits, the
     * logical up port ({@link LocalRules#UP}) when the switch has physical up ports.
     */
    public static Config camus(
        List<Long> upPorts, int eventPort, IntFunction<List<Action>> buckets) {
      return new Config(
          SwitchLayout.CAMUS_ENTRY_PRIORITY,
          SwitchLayout.CAMUS_FIRST_TABLE,
          32,
          SwitchLayout.CAMUS_COOKIE,
          SwitchLayout.CAMUS_GROUP_BASE,
          eventPort,
          buckets,
          upPorts.isEmpty() ? -1 : LocalRules.UP,
          upPorts);
    }

    /** Plain ports: the action id is the output port; no up port. */
    public static Config ports(int firstTable, long cookie, int eventPort) {
      return new Config(
          SwitchLayout.CAMUS_ENTRY_PRIORITY,
          firstTable,
          32,
          cookie,
          SwitchLayout.CAMUS_GROUP_BASE,
          eventPort,
          p -> List.of(Action.output(p)),
          -1,
          List.of());
    }

    /** The same with a logical up port: action {@code up} leaves by one of {@code ports}. */
    public Config withUp(int up, List<Long> ports) {
      return new Config(
          entryPriority, firstTable, stateBits, cookie, groupBase, eventPort, buckets, up, ports);
    }
  }

  /**
   * Metadata bit set when a message came in on an up port: it must not go up again (Camus §4), so
   * the leaf table sends it to the group's variant without the up bucket.
   */
  static final long FROM_UP = 1L << 40;

  /**
   * Group ids of the variants without the up bucket: the group's id plus this, above every group id
   * the compiler hands out from content.
   */
  static final long NO_UP_OFFSET = org.netpubsub.compiler.pipeline.Slicer.CONTENT_GROUP_SPAN;

  static final int VALUE_PRIORITY = 200;
  static final int DEFAULT_PRIORITY = 100;

  private final QueryAddressLayout layout;
  private final Config config;
  private final int fields;

  public OpenFlowPipeline(QueryAddressLayout layout, Config config) {
    this.layout = layout;
    this.config = config;
    this.fields = layout.carried().fields().size();
  }

  public QueryAddressLayout layout() {
    return layout;
  }

  /** The table-0 entry, every field table's miss entry, and the flows of every table entry. */
  public List<FlowEntry> flows(Pipeline p) {
    check(p);
    List<FlowEntry> out = new ArrayList<>(fixedFlows());
    for (int f = 0; f < fields; f++) {
      for (FieldEntry e : p.table(f)) {
        out.addAll(flows(f, e));
      }
    }
    Map<Integer, Group> groups = groupsById(p.groups(), List.of());
    for (LeafEntry e : p.leafTable()) {
      out.addAll(leafFlows(e, groups.get(e.group())));
    }
    return out;
  }

  /**
   * The OpenFlow groups of the pipeline groups that hold {@code action}: to modify when that
   * action's bucket changes (a host's subscribers come and go).
   */
  public List<GroupEntry> groupsWith(Pipeline p, int action) {
    List<GroupEntry> out = new ArrayList<>();
    for (Group g : p.groups()) {
      for (int a : g.actions()) {
        if (a == action) {
          out.addAll(groups(g));
          break;
        }
      }
    }
    return out;
  }

  /** The up port's select group (when there is an up port), then the pipeline's groups. */
  public List<GroupEntry> groups(Pipeline p) {
    List<GroupEntry> out = new ArrayList<>();
    if (config.upAction() >= 0) {
      out.add(upGroup());
    }
    p.groups().forEach(g -> out.addAll(groups(g)));
    return out;
  }

  /** The entry into the pipeline and the misses that carry the state on: always installed. */
  public List<FlowEntry> fixedFlows() {
    List<FlowEntry> out = new ArrayList<>();
    out.add(
        FlowEntry.builder()
            .table(SwitchLayout.TABLE_0)
            .priority(config.entryPriority())
            .cookie(config.cookie())
            .match(
                org.netpubsub.network.openflow.Match.builder()
                    .ethType(PacketHeaders.ETH_TYPE_IPV6)
                    .ipv6Dst(QueryAddressLayout.prefix())
                    .ipProto(PacketHeaders.IP_PROTO_UDP)
                    .udpDst(config.eventPort())
                    .build())
            .gotoTable(config.firstTable())
            .build());
    for (long up : config.upPorts()) {
      out.add(
          FlowEntry.builder()
              .table(SwitchLayout.TABLE_0)
              .priority(config.entryPriority() + 1)
              .cookie(config.cookie())
              .match(
                  org.netpubsub.network.openflow.Match.builder()
                      .inPort(up)
                      .ethType(PacketHeaders.ETH_TYPE_IPV6)
                      .ipv6Dst(QueryAddressLayout.prefix())
                      .ipProto(PacketHeaders.IP_PROTO_UDP)
                      .udpDst(config.eventPort())
                      .build())
              .writeMetadata(FROM_UP, FROM_UP)
              .gotoTable(config.firstTable())
              .build());
    }
    for (int f = 0; f < fields; f++) {
      out.add(
          FlowEntry.builder()
              .table(config.firstTable() + f)
              .priority(0)
              .cookie(config.cookie())
              .match(org.netpubsub.network.openflow.Match.ANY)
              .gotoTable(config.firstTable() + f + 1)
              .build());
    }
    return out;
  }

  /**
   * The messages that turn the switch from one pipeline to the next, hitless when applied in order
   * (OVS forwards between any two): groups created, then flows added from the leaf table back to
   * the first field table, then flows deleted from the first field table on, then groups deleted.
   * New states never reuse an id the same update frees, so a message always takes an old path whole
   * or a new one whole, and what both pipelines deliver is delivered throughout.
   */
  public record Changes(
      List<GroupMod> groupsAdded,
      List<FlowMod> flowsAdded,
      List<FlowMod> flowsDeleted,
      List<GroupMod> groupsDeleted) {
    public int size() {
      return groupsAdded.size() + flowsAdded.size() + flowsDeleted.size() + groupsDeleted.size();
    }
  }

  /** The messages for a diff; {@code after} is the pipeline the diff led to. */
  public Changes changes(PipelineDiff d, Pipeline after) {
    Map<Integer, Group> groups = groupsById(after.groups(), d.groupsRemoved());
    List<GroupMod> groupsAdded = new ArrayList<>();
    List<FlowMod> added = new ArrayList<>();
    List<FlowMod> deleted = new ArrayList<>();
    List<GroupMod> groupsDeleted = new ArrayList<>();
    d.groupsAdded().forEach(g -> groups(g).forEach(e -> groupsAdded.add(GroupMod.add(e))));
    // Additions from the leaf table back to the first field table: an entry that leads to a new
    // state goes in only after that state's own entries, so no event meets a state with none yet.
    for (LeafEntry e : d.leavesAdded()) {
      leafFlows(e, groups.get(e.group())).forEach(f -> added.add(FlowMod.add(f)));
    }
    for (int f = fields - 1; f >= 0; f--) {
      for (FieldEntry e : d.added(f)) {
        flows(f, e).forEach(fl -> added.add(FlowMod.add(fl)));
      }
    }
    // Removals from the first table on: an old state's entries go only after nothing leads to it.
    for (int f = 0; f < fields; f++) {
      for (FieldEntry e : d.removed(f)) {
        flows(f, e).forEach(fl -> deleted.add(FlowMod.deleteStrict(fl)));
      }
    }
    for (LeafEntry e : d.leavesRemoved()) {
      leafFlows(e, groups.get(e.group())).forEach(f -> deleted.add(FlowMod.deleteStrict(f)));
    }
    // An add with the match and priority of a flow being deleted replaces it (the root's state 0
    // keeps its matches and changes its next state): a strict delete would remove the new flow.
    java.util.Set<String> replaced = new java.util.HashSet<>();
    added.forEach(m -> replaced.add(key(m)));
    deleted.removeIf(m -> replaced.contains(key(m)));
    for (Group g : d.groupsRemoved()) {
      groups(g).forEach(e -> groupsDeleted.add(GroupMod.delete(e.groupId())));
    }
    return new Changes(groupsAdded, added, deleted, groupsDeleted);
  }

  private static String key(FlowMod m) {
    return m.tableId() + "/" + m.priority() + "/" + m.match();
  }

  /** The leaf table's id. */
  public int leafTable() {
    return config.firstTable() + fields;
  }

  public long groupId(int compilerGroup) {
    return config.groupBase() + compilerGroup;
  }

  private List<FlowEntry> flows(int f, FieldEntry e) {
    List<MaskedIpv6> matches = new ArrayList<>();
    int width = layout.carried().field(f).width();
    switch (e.match()) {
      case Match.Value v -> matches.add(layout.match(f, v.value(), width));
      case Match.Any a -> matches.add(null);
      case Match.Range r -> {
        for (long[] prefix : Tcam.expand(r.lo(), r.hi(), width)) {
          matches.add(layout.match(f, prefix[0], (int) prefix[1]));
        }
      }
    }
    List<FlowEntry> out = new ArrayList<>();
    int priority = e.match() instanceof Match.Any ? DEFAULT_PRIORITY : VALUE_PRIORITY;
    for (MaskedIpv6 m : matches) {
      var match =
          org.netpubsub.network.openflow.Match.builder()
              .ethType(PacketHeaders.ETH_TYPE_IPV6)
              .metadata(new MaskedLong(e.state(), stateMask()));
      if (m != null) {
        match.ipv6Dst(m);
      }
      out.add(
          FlowEntry.builder()
              .table(config.firstTable() + f)
              .priority(priority)
              .cookie(config.cookie())
              .match(match.build())
              .writeMetadata(e.next(), stateMask())
              .gotoTable(config.firstTable() + f + 1)
              .build());
    }
    return out;
  }

  /**
   * The leaf table's flows for a state: one to its group — or, when the group has the up bucket,
   * one for messages from down ports and one, to the variant without it, for messages from up.
   */
  private List<FlowEntry> leafFlows(LeafEntry e, Group g) {
    if (!hasUp(g)) {
      return List.of(leafFlow(e.state(), stateMask(), groupId(e.group())));
    }
    long mask = stateMask() | FROM_UP;
    return List.of(
        leafFlow(e.state(), mask, groupId(e.group())),
        leafFlow(e.state() | FROM_UP, mask, groupId(e.group()) + NO_UP_OFFSET));
  }

  private FlowEntry leafFlow(long metadata, long mask, long group) {
    return FlowEntry.builder()
        .table(leafTable())
        .priority(VALUE_PRIORITY)
        .cookie(config.cookie())
        .match(
            org.netpubsub.network.openflow.Match.builder()
                .metadata(new MaskedLong(metadata, mask))
                .build())
        .apply(Action.group(group))
        .build();
  }

  /** A pipeline group as OpenFlow groups: itself, and its variant without the up bucket. */
  private List<GroupEntry> groups(Group g) {
    // Two actions with the same bucket (a conditional action and a plain one of its port) send one
    // copy, not two.
    java.util.LinkedHashSet<Bucket> buckets = new java.util.LinkedHashSet<>();
    java.util.LinkedHashSet<Bucket> withoutUp = new java.util.LinkedHashSet<>();
    for (int a : g.actions()) {
      if (a == config.upAction()) {
        buckets.add(Bucket.of(Action.group(groupId(0))));
      } else {
        Bucket b = Bucket.of(config.buckets().apply(a).toArray(Action[]::new));
        buckets.add(b);
        withoutUp.add(b);
      }
    }
    GroupEntry main = new GroupEntry(groupId(g.id()), GroupType.ALL, List.copyOf(buckets));
    return hasUp(g)
        ? List.of(
            main,
            new GroupEntry(groupId(g.id()) + NO_UP_OFFSET, GroupType.ALL, List.copyOf(withoutUp)))
        : List.of(main);
  }

  /** The logical up port: one bucket per physical up port, one chosen per flow (ECMP). */
  private GroupEntry upGroup() {
    List<Bucket> buckets = new ArrayList<>();
    for (long p : config.upPorts()) {
      buckets.add(Bucket.weighted(1, Action.output(p)));
    }
    return new GroupEntry(groupId(0), GroupType.SELECT, buckets);
  }

  private boolean hasUp(Group g) {
    if (config.upAction() < 0) {
      return false;
    }
    for (int a : g.actions()) {
      if (a == config.upAction()) {
        return true;
      }
    }
    return false;
  }

  private static Map<Integer, Group> groupsById(
      java.util.Collection<Group> live, List<Group> removed) {
    Map<Integer, Group> out = new HashMap<>();
    live.forEach(g -> out.put(g.id(), g));
    removed.forEach(g -> out.putIfAbsent(g.id(), g));
    return out;
  }

  private long stateMask() {
    return config.stateBits() == 64 ? -1L : (1L << config.stateBits()) - 1;
  }

  private void check(Pipeline p) {
    if (!p.spec().fields().equals(layout.carried().fields())) {
      throw new IllegalArgumentException(
          "compile for the carried spec (QueryAddressLayout.carried()): the address holds "
              + layout.carried().fields().stream().map(q -> q.name()).toList());
    }
    if (p.stateBits() > config.stateBits()) {
      throw new IllegalArgumentException(
          p.stateBits() + " state bits needed, " + config.stateBits() + " configured");
    }
  }
}
