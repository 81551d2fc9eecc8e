package org.netpubsub.controller.southbound;

import java.util.List;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.GroupMod;

/** One message of an acknowledged batch: a flow-mod or a group-mod of the pure model. */
public sealed interface SwitchMod {

  /** A flow-mod. */
  record Flow(FlowMod mod) implements SwitchMod {
    public Flow {
      if (mod == null) {
        throw new IllegalArgumentException("flow-mod is required");
      }
    }

    @Override
    public String toString() {
      return mod.toString();
    }
  }

  /** A group-mod. */
  record Group(GroupMod mod) implements SwitchMod {
    public Group {
      if (mod == null) {
        throw new IllegalArgumentException("group-mod is required");
      }
    }

    @Override
    public String toString() {
      return mod.toString();
    }
  }

  static SwitchMod of(FlowMod mod) {
    return new Flow(mod);
  }

  static SwitchMod of(GroupMod mod) {
    return new Group(mod);
  }

  /** A batch of flow-mods. */
  static List<SwitchMod> flows(List<FlowMod> mods) {
    return mods.stream().map(SwitchMod::of).toList();
  }
}
