package org.netpubsub.controller.southbound;

import java.util.ArrayList;
import java.util.List;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.Bucket;
import org.netpubsub.network.openflow.Instruction;
import org.projectfloodlight.openflow.protocol.OFBucket;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.action.OFAction;
import org.projectfloodlight.openflow.protocol.action.OFActionGroup;
import org.projectfloodlight.openflow.protocol.action.OFActionOutput;
import org.projectfloodlight.openflow.protocol.action.OFActionSetField;
import org.projectfloodlight.openflow.protocol.instruction.OFInstruction;
import org.projectfloodlight.openflow.protocol.instruction.OFInstructionApplyActions;
import org.projectfloodlight.openflow.protocol.instruction.OFInstructionClearActions;
import org.projectfloodlight.openflow.protocol.instruction.OFInstructionGotoTable;
import org.projectfloodlight.openflow.protocol.instruction.OFInstructionWriteActions;
import org.projectfloodlight.openflow.protocol.instruction.OFInstructionWriteMetadata;
import org.projectfloodlight.openflow.protocol.oxm.OFOxm;
import org.projectfloodlight.openflow.protocol.oxm.OFOxmEthDst;
import org.projectfloodlight.openflow.protocol.oxm.OFOxmIpv6Dst;
import org.projectfloodlight.openflow.protocol.oxm.OFOxmIpv6Src;
import org.projectfloodlight.openflow.protocol.oxm.OFOxmUdpDst;
import org.projectfloodlight.openflow.protocol.oxm.OFOxmUdpSrc;
import org.projectfloodlight.openflow.types.MacAddress;
import org.projectfloodlight.openflow.types.OFGroup;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.TransportPort;
import org.projectfloodlight.openflow.types.U64;

/** The model's actions, instructions and group buckets as openflowj objects and back. */
final class ActionTranslator {
  private ActionTranslator() {}

  static List<OFAction> toOpenFlow(OFFactory f, List<Action> actions) {
    List<OFAction> out = new ArrayList<>(actions.size());
    for (Action a : actions) {
      out.add(toOpenFlow(f, a));
    }
    return out;
  }

  static OFAction toOpenFlow(OFFactory f, Action a) {
    return switch (a) {
      case Action.Output o -> f.actions().output(MatchTranslator.port(o.port()), o.maxLen());
      case Action.Group g -> f.actions().group(group(g.groupId()));
      case Action.SetIpv6Dst s ->
          f.actions().setField(f.oxms().ipv6Dst(MatchTranslator.address(s.value())));
      case Action.SetIpv6Src s ->
          f.actions().setField(f.oxms().ipv6Src(MatchTranslator.address(s.value())));
      case Action.SetUdpDst s -> f.actions().setField(f.oxms().udpDst(TransportPort.of(s.value())));
      case Action.SetUdpSrc s -> f.actions().setField(f.oxms().udpSrc(TransportPort.of(s.value())));
      case Action.SetEthDst s -> f.actions().setField(f.oxms().ethDst(MacAddress.of(s.mac())));
    };
  }

  static List<Action> fromOpenFlow(List<OFAction> actions) {
    List<Action> out = new ArrayList<>(actions.size());
    for (OFAction a : actions) {
      out.add(fromOpenFlow(a));
    }
    return out;
  }

  static Action fromOpenFlow(OFAction a) {
    if (a instanceof OFActionOutput o) {
      return new Action.Output(MatchTranslator.port(o.getPort()), o.getMaxLen() & 0xffff);
    }
    if (a instanceof OFActionGroup g) {
      return new Action.Group(group(g.getGroup()));
    }
    if (a instanceof OFActionSetField s) {
      OFOxm<?> field = s.getField();
      if (field.isMasked()) {
        throw new UnsupportedOpenFlowException("masked set_field is not in the model: " + field);
      }
      if (field instanceof OFOxmIpv6Dst d) {
        return new Action.SetIpv6Dst(MatchTranslator.address(d.getValue()));
      }
      if (field instanceof OFOxmIpv6Src d) {
        return new Action.SetIpv6Src(MatchTranslator.address(d.getValue()));
      }
      if (field instanceof OFOxmUdpDst d) {
        return new Action.SetUdpDst(d.getValue().getPort());
      }
      if (field instanceof OFOxmEthDst d) {
        return new Action.SetEthDst(d.getValue().getLong());
      }
      if (field instanceof OFOxmUdpSrc d) {
        return new Action.SetUdpSrc(d.getValue().getPort());
      }
      throw new UnsupportedOpenFlowException(
          "set_field of " + field.getMatchField().getName() + " is not in the model");
    }
    throw new UnsupportedOpenFlowException("action " + a.getType() + " is not in the model");
  }

  static List<OFInstruction> instructionsToOpenFlow(OFFactory f, List<Instruction> instructions) {
    List<OFInstruction> out = new ArrayList<>(instructions.size());
    for (Instruction i : instructions) {
      out.add(
          switch (i) {
            case Instruction.ApplyActions a ->
                f.instructions().applyActions(toOpenFlow(f, a.actions()));
            case Instruction.WriteActions w ->
                f.instructions().writeActions(toOpenFlow(f, w.actions()));
            case Instruction.ClearActions c -> f.instructions().clearActions();
            case Instruction.WriteMetadata m ->
                f.instructions().writeMetadata(U64.of(m.value()), U64.of(m.mask()));
            case Instruction.GotoTable g -> f.instructions().gotoTable(TableId.of(g.tableId()));
          });
    }
    return out;
  }

  static List<Instruction> instructionsFromOpenFlow(List<OFInstruction> instructions) {
    List<Instruction> out = new ArrayList<>(instructions.size());
    for (OFInstruction i : instructions) {
      if (i instanceof OFInstructionApplyActions a) {
        out.add(new Instruction.ApplyActions(fromOpenFlow(a.getActions())));
      } else if (i instanceof OFInstructionWriteActions w) {
        out.add(new Instruction.WriteActions(fromOpenFlow(w.getActions())));
      } else if (i instanceof OFInstructionClearActions) {
        out.add(new Instruction.ClearActions());
      } else if (i instanceof OFInstructionWriteMetadata m) {
        out.add(
            new Instruction.WriteMetadata(
                m.getMetadata().getValue(), m.getMetadataMask().getValue()));
      } else if (i instanceof OFInstructionGotoTable g) {
        out.add(new Instruction.GotoTable(g.getTableId().getValue() & 0xff));
      } else {
        throw new UnsupportedOpenFlowException(
            "instruction " + i.getType() + " is not in the model");
      }
    }
    return out;
  }

  static List<OFBucket> bucketsToOpenFlow(OFFactory f, List<Bucket> buckets) {
    List<OFBucket> out = new ArrayList<>(buckets.size());
    for (Bucket b : buckets) {
      out.add(
          f.buildBucket()
              .setWeight(b.weight())
              .setWatchPort(MatchTranslator.port(b.watchPort()))
              .setWatchGroup(group(b.watchGroup()))
              .setActions(toOpenFlow(f, b.actions()))
              .build());
    }
    return out;
  }

  static List<Bucket> bucketsFromOpenFlow(List<OFBucket> buckets) {
    List<Bucket> out = new ArrayList<>(buckets.size());
    for (OFBucket b : buckets) {
      out.add(
          new Bucket(
              b.getWeight(),
              MatchTranslator.port(b.getWatchPort()),
              group(b.getWatchGroup()),
              fromOpenFlow(b.getActions())));
    }
    return out;
  }

  static OFGroup group(long id) {
    return OFGroup.of((int) id);
  }

  static long group(OFGroup g) {
    return g.getGroupNumber() & 0xffffffffL;
  }
}
