package org.netpubsub.network.openflow;

import java.util.List;
import java.util.Optional;
import java.util.function.LongPredicate;

/**
 * The checks a switch makes before it applies a flow-mod or group-mod, in Open vSwitch's order,
 * each answering the OpenFlow 1.3 error OVS answers (see docs/network-model.md for where the
 * simulated switch is stricter).
 */
final class ModValidator {
  private ModValidator() {}

  /**
   * The checks a switch makes on decoding a flow-mod, whatever the tables hold: buffer, table id,
   * match prerequisites, ports, set-field prerequisites, goto direction.
   */
  static Optional<OpenFlowError> check(FlowMod fm, SwitchConfig config) {
    if (fm.bufferId() != FlowMod.NO_BUFFER) {
      return err(OpenFlowError.OFPBRC_BUFFER_UNKNOWN); // the simulated switch buffers nothing
    }
    if (fm.command() == FlowModCommand.ADD && fm.tableId() == FlowMod.ALL_TABLES) {
      return err(OpenFlowError.OFPFMFC_BAD_TABLE_ID);
    }
    if (fm.tableId() != FlowMod.ALL_TABLES && fm.tableId() >= config.numTables()) {
      return err(OpenFlowError.OFPBRC_BAD_TABLE_ID);
    }
    Optional<OpenFlowError> match = checkMatch(fm.match());
    if (match.isPresent() || fm.command().isDelete()) {
      return match; // a delete's instructions are ignored
    }
    if (namesAGroupTwice(fm.instructions())) {
      // Open vSwitch 3.1.0 accepts such a flow, then aborts (assertion in ofproto_rule_remove__)
      // when the group is deleted; the simulated switch refuses it so controllers never send it.
      return err(OpenFlowError.OFPBAC_BAD_OUT_GROUP);
    }
    for (Instruction i : fm.instructions()) {
      Optional<OpenFlowError> e =
          switch (i) {
            case Instruction.ApplyActions a -> checkActions(a.actions(), fm.match());
            case Instruction.WriteActions w -> checkActions(w.actions(), fm.match());
            case Instruction.GotoTable g -> checkGoto(g.tableId(), fm.tableId(), config);
            case Instruction.ClearActions c -> Optional.empty();
            case Instruction.WriteMetadata m -> Optional.empty();
          };
      if (e.isPresent()) {
        return e;
      }
    }
    return Optional.empty();
  }

  /**
   * OFPBAC_BAD_OUT_GROUP if an action names a group that does not exist. OVS checks this only for
   * an ADD and for a modify that selects at least one entry (ofproto_check_ofpacts).
   */
  static Optional<OpenFlowError> checkGroups(FlowMod fm, LongPredicate groupExists) {
    for (Instruction i : fm.instructions()) {
      List<Action> actions =
          switch (i) {
            case Instruction.ApplyActions a -> a.actions();
            case Instruction.WriteActions w -> w.actions();
            default -> List.of();
          };
      for (Action a : actions) {
        if (a instanceof Action.Group g && !groupExists.test(g.groupId())) {
          return err(OpenFlowError.OFPBAC_BAD_OUT_GROUP);
        }
      }
    }
    return Optional.empty();
  }

  /** True if apply- and write-actions together name one group more than once. */
  static boolean namesAGroupTwice(List<Instruction> instructions) {
    java.util.Set<Long> seen = new java.util.HashSet<>();
    for (Instruction i : instructions) {
      List<Action> actions =
          switch (i) {
            case Instruction.ApplyActions a -> a.actions();
            case Instruction.WriteActions w -> w.actions();
            default -> List.of();
          };
      for (Action a : actions) {
        if (a instanceof Action.Group g && !seen.add(g.groupId())) {
          return true;
        }
      }
    }
    return false;
  }

  static Optional<OpenFlowError> checkMatch(Match m) {
    Optional<OpenFlowError> prereq = m.prerequisiteError();
    if (prereq.isPresent()) {
      return prereq;
    }
    if (m.inPort() != null && !validInPort(m.inPort())) {
      return err(OpenFlowError.OFPBMC_BAD_VALUE);
    }
    return Optional.empty();
  }

  private static boolean validInPort(long port) {
    return OfPort.isPhysicalOrLocal(port) || port == OfPort.CONTROLLER;
  }

  private static Optional<OpenFlowError> checkGoto(int target, int tableId, SwitchConfig config) {
    boolean backwards = tableId != FlowMod.ALL_TABLES && target <= tableId;
    return backwards || target >= config.numTables()
        ? err(OpenFlowError.OFPBIC_BAD_TABLE_ID)
        : Optional.empty();
  }

  /** Actions of a flow: ports, group ids, and set_field prerequisites against the match. */
  private static Optional<OpenFlowError> checkActions(List<Action> actions, Match match) {
    for (Action a : actions) {
      Optional<OpenFlowError> e = checkAction(a);
      if (e.isPresent()) {
        return e;
      }
      if (a instanceof Action.SetField s && !s.consistentWith(match)) {
        return err(OpenFlowError.OFPBAC_MATCH_INCONSISTENT);
      }
    }
    return Optional.empty();
  }

  /** Checks that hold for actions of flows and of buckets alike. */
  private static Optional<OpenFlowError> checkAction(Action a) {
    if (a instanceof Action.Output o && !validOutPort(o.port())) {
      return err(OpenFlowError.OFPBAC_BAD_OUT_PORT);
    }
    if (a instanceof Action.Group g && g.groupId() > GroupEntry.MAX) {
      return err(OpenFlowError.OFPBAC_BAD_OUT_GROUP);
    }
    return Optional.empty();
  }

  /**
   * Physical ports, LOCAL, and the reserved ports the simulated switch implements. NORMAL (L2
   * learning), TABLE (packet-out only) and ANY are refused.
   */
  private static boolean validOutPort(long port) {
    return OfPort.isPhysicalOrLocal(port)
        || port == OfPort.IN_PORT
        || port == OfPort.ALL
        || port == OfPort.FLOOD
        || port == OfPort.CONTROLLER;
  }

  /** Checks of a group-mod that do not depend on the group table (ofputil_check_group_mod). */
  static Optional<OpenFlowError> check(GroupMod gm) {
    if (gm.command() == GroupModCommand.DELETE) {
      // OpenFlow 1.3.5 prescribes an error for a delete that carries buckets.
      return gm.buckets().isEmpty() ? Optional.empty() : err(OpenFlowError.OFPGMFC_INVALID_GROUP);
    }
    if (gm.type() == GroupType.INDIRECT && gm.buckets().size() != 1) {
      return err(OpenFlowError.OFPGMFC_INVALID_GROUP);
    }
    for (Bucket b : gm.buckets()) {
      if (b.weight() != 0 && gm.type() != GroupType.SELECT) {
        return err(OpenFlowError.OFPGMFC_INVALID_GROUP);
      }
      if ((gm.type() == GroupType.ALL || gm.type() == GroupType.INDIRECT) && b.hasLiveness()) {
        return err(OpenFlowError.OFPGMFC_WATCH_UNSUPPORTED);
      }
      if (gm.type() == GroupType.FF && !b.hasLiveness()) {
        return err(OpenFlowError.OFPGMFC_INVALID_GROUP);
      }
      for (Action a : b.actions()) {
        Optional<OpenFlowError> e = checkAction(a);
        if (e.isPresent()) {
          return e;
        }
      }
    }
    if (gm.groupId() > GroupEntry.MAX) {
      return err(OpenFlowError.OFPGMFC_INVALID_GROUP);
    }
    return Optional.empty();
  }

  private static Optional<OpenFlowError> err(OpenFlowError e) {
    return Optional.of(e);
  }
}
