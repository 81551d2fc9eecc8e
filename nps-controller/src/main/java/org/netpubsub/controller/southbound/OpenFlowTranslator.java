package org.netpubsub.controller.southbound;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowFlag;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.FlowModCommand;
import org.netpubsub.network.openflow.FlowRemoved;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.GroupMod;
import org.netpubsub.network.openflow.GroupModCommand;
import org.netpubsub.network.openflow.GroupType;
import org.netpubsub.network.openflow.OpenFlowError;
import org.projectfloodlight.openflow.protocol.OFErrorMsg;
import org.projectfloodlight.openflow.protocol.OFFactories;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFlowMod;
import org.projectfloodlight.openflow.protocol.OFFlowModFlags;
import org.projectfloodlight.openflow.protocol.OFFlowRemoved;
import org.projectfloodlight.openflow.protocol.OFFlowRemovedReason;
import org.projectfloodlight.openflow.protocol.OFFlowStatsEntry;
import org.projectfloodlight.openflow.protocol.OFGroupDescStatsEntry;
import org.projectfloodlight.openflow.protocol.OFGroupMod;
import org.projectfloodlight.openflow.protocol.OFGroupType;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketOut;
import org.projectfloodlight.openflow.protocol.OFPortConfig;
import org.projectfloodlight.openflow.protocol.OFPortDesc;
import org.projectfloodlight.openflow.protocol.OFPortState;
import org.projectfloodlight.openflow.protocol.OFPortStatsEntry;
import org.projectfloodlight.openflow.protocol.OFVersion;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.U64;

/**
 * Maps the pure OpenFlow model of {@code org.netpubsub.network.openflow} to openflowj's OpenFlow
 * 1.3 messages and back: flow-mods (every command and field), group-mods, flow-stats and group-desc
 * entries, flow-removed, port descriptions, errors, packet-outs. Pure apart from the openflowj
 * objects; a message outside the model fails with {@link UnsupportedOpenFlowException}.
 */
public final class OpenFlowTranslator {
  /** The OpenFlow 1.3 factory every message is built with. */
  public static final OFFactory OF13 = OFFactories.getFactory(OFVersion.OF_13);

  private OpenFlowTranslator() {}

  /** The openflowj message of a batch element. */
  public static OFMessage toOpenFlow(SwitchMod mod, long xid) {
    return switch (mod) {
      case SwitchMod.Flow f -> toOpenFlow(f.mod(), xid);
      case SwitchMod.Group g -> toOpenFlow(g.mod(), xid);
    };
  }

  public static OFFlowMod toOpenFlow(FlowMod fm, long xid) {
    OFFactory f = OF13;
    OFFlowMod.Builder b =
        switch (fm.command()) {
          case ADD -> f.buildFlowAdd();
          case MODIFY -> f.buildFlowModify();
          case MODIFY_STRICT -> f.buildFlowModifyStrict();
          case DELETE -> f.buildFlowDelete();
          case DELETE_STRICT -> f.buildFlowDeleteStrict();
        };
    return b.setXid(xid)
        .setTableId(TableId.of(fm.tableId()))
        .setPriority(fm.priority())
        .setMatch(MatchTranslator.toOpenFlow(f, fm.match()))
        .setInstructions(ActionTranslator.instructionsToOpenFlow(f, fm.instructions()))
        .setCookie(U64.of(fm.cookie()))
        .setCookieMask(U64.of(fm.cookieMask()))
        .setFlags(flagsToOpenFlow(fm.flags()))
        .setIdleTimeout(fm.idleTimeout())
        .setHardTimeout(fm.hardTimeout())
        .setOutPort(MatchTranslator.port(fm.outPort()))
        .setOutGroup(ActionTranslator.group(fm.outGroup()))
        .setBufferId(OFBufferId.of((int) fm.bufferId()))
        .build();
  }

  public static FlowMod fromOpenFlow(OFFlowMod m) {
    FlowModCommand command =
        switch (m.getCommand()) {
          case ADD -> FlowModCommand.ADD;
          case MODIFY -> FlowModCommand.MODIFY;
          case MODIFY_STRICT -> FlowModCommand.MODIFY_STRICT;
          case DELETE -> FlowModCommand.DELETE;
          case DELETE_STRICT -> FlowModCommand.DELETE_STRICT;
        };
    return FlowMod.builder(command)
        .table(m.getTableId().getValue() & 0xff)
        .priority(m.getPriority())
        .match(MatchTranslator.fromOpenFlow(m.getMatch()))
        .instructions(ActionTranslator.instructionsFromOpenFlow(m.getInstructions()))
        .cookie(m.getCookie().getValue(), m.getCookieMask().getValue())
        .flags(flagsFromOpenFlow(m.getFlags()))
        .idleTimeout(m.getIdleTimeout())
        .hardTimeout(m.getHardTimeout())
        .outPort(MatchTranslator.port(m.getOutPort()))
        .outGroup(ActionTranslator.group(m.getOutGroup()))
        .bufferId(m.getBufferId().getInt() & 0xffffffffL)
        .build();
  }

  public static OFGroupMod toOpenFlow(GroupMod gm, long xid) {
    OFFactory f = OF13;
    OFGroupMod.Builder b =
        switch (gm.command()) {
          case ADD -> f.buildGroupAdd();
          case MODIFY -> f.buildGroupModify();
          case DELETE -> f.buildGroupDelete();
        };
    return b.setXid(xid)
        .setGroup(ActionTranslator.group(gm.groupId()))
        .setGroupType(groupType(gm.type()))
        .setBuckets(ActionTranslator.bucketsToOpenFlow(f, gm.buckets()))
        .build();
  }

  public static GroupMod fromOpenFlow(OFGroupMod m) {
    GroupModCommand command =
        switch (m.getCommand()) {
          case ADD -> GroupModCommand.ADD;
          case MODIFY -> GroupModCommand.MODIFY;
          case DELETE -> GroupModCommand.DELETE;
          default ->
              throw new UnsupportedOpenFlowException(
                  "group-mod command " + m.getCommand() + " is not in the model");
        };
    return new GroupMod(
        command,
        ActionTranslator.group(m.getGroup()),
        groupType(m.getGroupType()),
        ActionTranslator.bucketsFromOpenFlow(m.getBuckets()));
  }

  /** A flow-stats reply entry; counters and durations are dropped (the model has none). */
  public static FlowEntry fromStats(OFFlowStatsEntry e) {
    return FlowEntry.builder()
        .table(e.getTableId().getValue() & 0xff)
        .priority(e.getPriority())
        .match(MatchTranslator.fromOpenFlow(e.getMatch()))
        .instructions(ActionTranslator.instructionsFromOpenFlow(e.getInstructions()))
        .cookie(e.getCookie().getValue())
        .flags(flagsFromOpenFlow(e.getFlags()))
        .idleTimeout(e.getIdleTimeout())
        .hardTimeout(e.getHardTimeout())
        .build();
  }

  /** The flow-stats entry a switch reports for {@code e}, with its counters. */
  public static OFFlowStatsEntry toStats(FlowEntry e, long durationSeconds, long packetCount) {
    OFFactory f = OF13;
    return f.buildFlowStatsEntry()
        .setTableId(TableId.of(e.tableId()))
        .setPriority(e.priority())
        .setMatch(MatchTranslator.toOpenFlow(f, e.match()))
        .setInstructions(ActionTranslator.instructionsToOpenFlow(f, e.instructions()))
        .setCookie(U64.of(e.cookie()))
        .setFlags(flagsToOpenFlow(e.flags()))
        .setIdleTimeout(e.idleTimeout())
        .setHardTimeout(e.hardTimeout())
        .setDurationSec(durationSeconds)
        .setPacketCount(U64.of(packetCount))
        .setByteCount(U64.of(0))
        .build();
  }

  public static GroupEntry fromGroupDesc(OFGroupDescStatsEntry e) {
    return new GroupEntry(
        ActionTranslator.group(e.getGroup()),
        groupType(e.getGroupType()),
        ActionTranslator.bucketsFromOpenFlow(e.getBuckets()));
  }

  public static OFGroupDescStatsEntry toGroupDesc(GroupEntry g) {
    return OF13.buildGroupDescStatsEntry()
        .setGroup(ActionTranslator.group(g.groupId()))
        .setGroupType(groupType(g.type()))
        .setBuckets(ActionTranslator.bucketsToOpenFlow(OF13, g.buckets()))
        .build();
  }

  /**
   * A flow-removed message. OpenFlow 1.3 carries no instructions or flags in it, so the entry has
   * none.
   */
  public static FlowRemoved fromOpenFlow(OFFlowRemoved m) {
    FlowEntry entry =
        FlowEntry.builder()
            .table(m.getTableId().getValue() & 0xff)
            .priority(m.getPriority())
            .match(MatchTranslator.fromOpenFlow(m.getMatch()))
            .cookie(m.getCookie().getValue())
            .idleTimeout(m.getIdleTimeout())
            .hardTimeout(m.getHardTimeout())
            .build();
    FlowRemoved.Reason reason =
        switch (m.getReason()) {
          case IDLE_TIMEOUT -> FlowRemoved.Reason.IDLE_TIMEOUT;
          case HARD_TIMEOUT -> FlowRemoved.Reason.HARD_TIMEOUT;
          case DELETE -> FlowRemoved.Reason.DELETE;
          case GROUP_DELETE -> FlowRemoved.Reason.GROUP_DELETE;
          default ->
              throw new UnsupportedOpenFlowException(
                  "flow-removed reason " + m.getReason() + " is not in the model");
        };
    return new FlowRemoved(entry, reason);
  }

  public static OFFlowRemoved toOpenFlow(FlowRemoved r, long xid) {
    FlowEntry e = r.entry();
    return OF13.buildFlowRemoved()
        .setXid(xid)
        .setTableId(TableId.of(e.tableId()))
        .setPriority(e.priority())
        .setMatch(MatchTranslator.toOpenFlow(OF13, e.match()))
        .setCookie(U64.of(e.cookie()))
        .setIdleTimeout(e.idleTimeout())
        .setHardTimeout(e.hardTimeout())
        .setReason(OFFlowRemovedReason.valueOf(r.reason().name()))
        .setPacketCount(U64.of(0))
        .setByteCount(U64.of(0))
        .build();
  }

  /** Counters the switch does not keep come as all ones; they read as 0. */
  public static PortCounters fromPortStats(OFPortStatsEntry e) {
    return new PortCounters(
        MatchTranslator.port(e.getPortNo()),
        counter(e.getRxBytes()),
        counter(e.getTxBytes()),
        counter(e.getRxPackets()),
        counter(e.getTxPackets()));
  }

  public static OFPortStatsEntry toPortStats(PortCounters c) {
    return OF13.buildPortStatsEntry()
        .setPortNo(MatchTranslator.port(c.port()))
        .setRxBytes(U64.of(c.rxBytes()))
        .setTxBytes(U64.of(c.txBytes()))
        .setRxPackets(U64.of(c.rxPackets()))
        .setTxPackets(U64.of(c.txPackets()))
        .setRxDropped(U64.ZERO)
        .setTxDropped(U64.ZERO)
        .setRxErrors(U64.ZERO)
        .setTxErrors(U64.ZERO)
        .setRxFrameErr(U64.ZERO)
        .setRxOverErr(U64.ZERO)
        .setRxCrcErr(U64.ZERO)
        .setCollisions(U64.ZERO)
        .setDurationSec(0)
        .setDurationNsec(0)
        .build();
  }

  private static long counter(U64 v) {
    return v.getValue() == -1L ? 0 : v.getValue();
  }

  /** A port is up when it is administratively enabled and has a link. */
  public static PortInfo fromOpenFlow(OFPortDesc p) {
    boolean up =
        !p.getConfig().contains(OFPortConfig.PORT_DOWN)
            && !p.getState().contains(OFPortState.LINK_DOWN);
    return new PortInfo(
        MatchTranslator.port(p.getPortNo()), p.getName(), p.getHwAddr().getLong(), up);
  }

  public static OFPortDesc toOpenFlow(PortInfo p) {
    return OF13.buildPortDesc()
        .setPortNo(MatchTranslator.port(p.number()))
        .setName(p.name())
        .setHwAddr(MacAddress.of(p.hwAddr()))
        .setConfig(Set.of())
        .setState(p.up() ? Set.of(OFPortState.LIVE) : Set.of(OFPortState.LINK_DOWN))
        .build();
  }

  public static SwitchError fromOpenFlow(OFErrorMsg m) {
    return ErrorTranslator.fromOpenFlow(m);
  }

  /** The OFPT_ERROR a switch answers to request {@code xid}, carrying the request's bytes. */
  public static OFErrorMsg toOpenFlow(OpenFlowError e, long xid, byte[] data) {
    return ErrorTranslator.toOpenFlow(OF13, e.typeNumber(), e.code(), xid, data);
  }

  /** A packet-out of a whole frame (no buffer) entering as if by {@code inPort}. */
  public static OFPacketOut packetOut(long inPort, List<Action> actions, byte[] frame, long xid) {
    return OF13.buildPacketOut()
        .setXid(xid)
        .setBufferId(OFBufferId.NO_BUFFER)
        .setInPort(MatchTranslator.port(inPort))
        .setActions(ActionTranslator.toOpenFlow(OF13, actions))
        .setData(frame)
        .build();
  }

  /** The actions of a packet-out (what the switch executes). */
  public static List<Action> actions(OFPacketOut p) {
    return ActionTranslator.fromOpenFlow(p.getActions());
  }

  static Set<OFFlowModFlags> flagsToOpenFlow(Set<FlowFlag> flags) {
    Set<OFFlowModFlags> out = EnumSet.noneOf(OFFlowModFlags.class);
    for (FlowFlag flag : flags) {
      out.add(OFFlowModFlags.valueOf(flag.name()));
    }
    return out;
  }

  static Set<FlowFlag> flagsFromOpenFlow(Set<OFFlowModFlags> flags) {
    Set<FlowFlag> out = EnumSet.noneOf(FlowFlag.class);
    for (OFFlowModFlags flag : flags) {
      try {
        out.add(FlowFlag.valueOf(flag.name()));
      } catch (IllegalArgumentException e) {
        throw new UnsupportedOpenFlowException("flow flag " + flag + " is not in the model");
      }
    }
    return out;
  }

  static OFGroupType groupType(GroupType t) {
    return OFGroupType.valueOf(t.name());
  }

  static GroupType groupType(OFGroupType t) {
    return GroupType.valueOf(t.name());
  }
}
