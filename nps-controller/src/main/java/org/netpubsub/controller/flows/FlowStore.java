package org.netpubsub.controller.flows;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.LongPredicate;
import org.netpubsub.controller.southbound.DesiredState;
import org.netpubsub.controller.southbound.Reconciler.FlowKey;
import org.netpubsub.controller.southbound.SwitchMod;
import org.netpubsub.network.invariants.FlowInvariants;
import org.netpubsub.network.layout.FlowSpace;
import org.netpubsub.network.layout.Owner;
import org.netpubsub.network.layout.SwitchLayout;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.FlowModCommand;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.GroupMod;
import org.netpubsub.network.openflow.GroupModCommand;

/**
 * Every owner's flows and groups per switch, as the switches should hold them. Deltas ({@link
 * #apply}) and whole replacements ({@link #replace}) keep it; a switch's {@link #desired} state is
 * the owners' entries in the order the owners first wrote. A batch with a mod outside its owner's
 * {@link SwitchLayout} space is refused whole. Add and modify put the entry under its table,
 * priority and match; a strict delete removes the entry with exactly those, a non-strict one every
 * entry of the owner it selects, as a switch does ({@link FlowMod#deletes}). Not thread-safe: the
 * flow service confines it to the controller loop.
 */
public final class FlowStore {
  /** One owner's entries on one switch. */
  private record Entries(Map<FlowKey, FlowEntry> flows, Map<Long, GroupEntry> groups) {
    Entries() {
      this(new LinkedHashMap<>(), new LinkedHashMap<>());
    }
  }

  // owners in the order they first wrote: the order of a switch's desired state
  private final Map<Owner, Map<Long, Entries>> owners = new LinkedHashMap<>();

  /** Takes an owner in (its entries follow those of the owners taken in before). */
  public void register(Owner owner) {
    owners.computeIfAbsent(owner, o -> new HashMap<>());
  }

  /** Applies one switch's batch of an owner, in order; refuses it whole if a mod is outside. */
  public void apply(Owner owner, long dpid, List<SwitchMod> mods) {
    check(owner, dpid, mods);
    Entries e = entries(owner, dpid);
    for (SwitchMod m : mods) {
      switch (m) {
        case SwitchMod.Flow f -> apply(e.flows(), f.mod());
        case SwitchMod.Group g -> apply(e.groups(), g.mod());
      }
    }
  }

  /** Throws {@link FlowRefusedException} for the first mod outside the owner's space. */
  public static void check(Owner owner, long dpid, List<SwitchMod> mods) {
    FlowSpace space = SwitchLayout.space(owner);
    for (SwitchMod m : mods) {
      boolean inside =
          switch (m) {
            case SwitchMod.Flow f -> space.contains(f.mod());
            case SwitchMod.Group g -> space.contains(g.mod());
          };
      if (!inside) {
        throw new FlowRefusedException(owner, dpid, m);
      }
    }
  }

  /**
   * Replaces an owner's entries on one switch; whether they changed. Refused whole if an entry is
   * outside the owner's space.
   */
  public boolean replace(Owner owner, long dpid, List<FlowEntry> flows, List<GroupEntry> groups) {
    FlowSpace space = SwitchLayout.space(owner);
    Entries next = new Entries();
    for (FlowEntry f : flows) {
      if (!space.contains(f)) {
        throw new FlowRefusedException(owner, dpid, f);
      }
      next.flows().put(FlowKey.of(f), f);
    }
    for (GroupEntry g : groups) {
      if (!space.containsGroup(g.groupId())) {
        throw new FlowRefusedException(owner, dpid, g);
      }
      next.groups().put(g.groupId(), g);
    }
    Map<Long, Entries> bySwitch = owners.computeIfAbsent(owner, o -> new HashMap<>());
    Entries before = bySwitch.get(dpid);
    if (before == null ? flows.isEmpty() && groups.isEmpty() : before.equals(next)) {
      return false;
    }
    bySwitch.put(dpid, next);
    return true;
  }

  /**
   * The net change an owner's batch would make to one switch (the layout check aside): what the
   * invariant checker checks before the batch is taken, in time proportional to the batch, not to
   * the switch's state. Nothing changes.
   */
  public FlowInvariants.Change change(Owner owner, long dpid, List<SwitchMod> mods) {
    Entries now = owners.getOrDefault(owner, Map.of()).getOrDefault(dpid, new Entries());
    // the batch's keys, each as it would end up (null: deleted)
    Map<FlowKey, FlowEntry> flows = new LinkedHashMap<>();
    Map<Long, GroupEntry> groups = new LinkedHashMap<>();
    for (SwitchMod m : mods) {
      switch (m) {
        case SwitchMod.Flow f -> {
          FlowMod mod = f.mod();
          if (mod.command() == FlowModCommand.DELETE) {
            for (FlowEntry e : now.flows().values()) {
              if (!flows.containsKey(FlowKey.of(e)) && mod.deletes(e)) {
                flows.put(FlowKey.of(e), null);
              }
            }
            flows.replaceAll((k, after) -> after != null && mod.deletes(after) ? null : after);
          } else {
            flows.put(
                new FlowKey(mod.tableId(), mod.priority(), mod.match()),
                mod.command().isDelete() ? null : mod.toEntry());
          }
        }
        case SwitchMod.Group g ->
            groups.put(
                g.mod().groupId(),
                g.mod().command() == GroupModCommand.DELETE ? null : g.mod().toEntry());
      }
    }
    List<FlowEntry> removed = new ArrayList<>();
    List<FlowEntry> added = new ArrayList<>();
    flows.forEach(
        (key, after) -> {
          FlowEntry before = now.flows().get(key);
          if (!Objects.equals(before, after)) {
            if (before != null) {
              removed.add(before);
            }
            if (after != null) {
              added.add(after);
            }
          }
        });
    List<Long> groupsRemoved = new ArrayList<>();
    List<GroupEntry> groupsPut = new ArrayList<>();
    groups.forEach(
        (id, after) -> {
          GroupEntry before = now.groups().get(id);
          if (after == null && before != null) {
            groupsRemoved.add(id);
          } else if (after != null && !after.equals(before)) {
            groupsPut.add(after);
          }
        });
    return new FlowInvariants.Change(removed, added, groupsRemoved, groupsPut);
  }

  /**
   * Throws the {@link IllegalArgumentException} a {@link DesiredState} of the switch would after
   * the batch whose net {@code change} this is ({@link #change}): a flow key or group id another
   * owner holds on the switch, or a flow or group naming a group the switch would lack. Per change,
   * but a batch that removes a group scans the switch's entries for what still names it.
   */
  public void checkConsistent(Owner owner, long dpid, FlowInvariants.Change change) {
    List<Entries> others = new ArrayList<>();
    owners.forEach(
        (o, bySwitch) -> {
          Entries e = bySwitch.get(dpid);
          if (e != null && o != owner) {
            others.add(e);
          }
        });
    Entries own = owners.getOrDefault(owner, Map.of()).getOrDefault(dpid, new Entries());
    Set<Long> removedGroups = new HashSet<>(change.groupsRemoved());
    Map<Long, GroupEntry> putGroups = new HashMap<>();
    change.groupsPut().forEach(g -> putGroups.put(g.groupId(), g));
    for (FlowEntry f : change.added()) {
      FlowKey key = FlowKey.of(f);
      if (others.stream().anyMatch(e -> e.flows().containsKey(key))) {
        throw new IllegalArgumentException(
            "two desired flows with table, priority and match of: " + f);
      }
    }
    for (GroupEntry g : change.groupsPut()) {
      if (others.stream().anyMatch(e -> e.groups().containsKey(g.groupId()))) {
        throw new IllegalArgumentException("two desired groups with id " + g.groupId());
      }
    }
    LongPredicate held =
        id ->
            putGroups.containsKey(id)
                || !removedGroups.contains(id) && own.groups().containsKey(id)
                || others.stream().anyMatch(e -> e.groups().containsKey(id));
    for (FlowEntry f : change.added()) {
      named(f.allActions(), held, "flow ", f);
    }
    for (GroupEntry g : change.groupsPut()) {
      g.buckets().forEach(b -> named(b.actions(), held, "group ", g.groupId()));
    }
    if (removedGroups.isEmpty()) {
      return;
    }
    // what still names a removed group: every entry left on the switch
    Set<FlowEntry> removedFlows = new HashSet<>(change.removed());
    List<Entries> all = new ArrayList<>(others);
    all.add(own);
    for (Entries e : all) {
      for (FlowEntry f : e.flows().values()) {
        if (!(e == own && removedFlows.contains(f))) {
          named(f.allActions(), held, "flow ", f);
        }
      }
      for (GroupEntry g : e.groups().values()) {
        if (!(e == own
            && (removedGroups.contains(g.groupId()) || putGroups.containsKey(g.groupId())))) {
          g.buckets().forEach(b -> named(b.actions(), held, "group ", g.groupId()));
        }
      }
    }
  }

  /** The message is built only when thrown: a flow's text costs more than the check. */
  private static void named(List<Action> actions, LongPredicate held, String kind, Object what) {
    for (Action a : actions) {
      if (a instanceof Action.Group g && !held.test(g.groupId())) {
        throw new IllegalArgumentException(
            kind + what + " names group " + g.groupId() + ", which the desired state lacks");
      }
    }
  }

  /** One owner's flows and groups on one switch. */
  public record Owned(List<FlowEntry> flows, List<GroupEntry> groups) {
    public static final Owned NONE = new Owned(List.of(), List.of());

    public Owned {
      flows = List.copyOf(flows);
      groups = List.copyOf(groups);
    }
  }

  /** An owner's flows and groups on one switch (its previous state, for a delta). */
  public Owned owned(Owner owner, long dpid) {
    Entries e = owners.getOrDefault(owner, Map.of()).get(dpid);
    return e == null
        ? Owned.NONE
        : new Owned(List.copyOf(e.flows().values()), List.copyOf(e.groups().values()));
  }

  /** An owner's flows on one switch. */
  public List<FlowEntry> flows(Owner owner, long dpid) {
    Entries e = owners.getOrDefault(owner, Map.of()).get(dpid);
    return e == null ? List.of() : List.copyOf(e.flows().values());
  }

  /** Every owner's entries on one switch. */
  public DesiredState desired(long dpid) {
    List<FlowEntry> flows = new ArrayList<>();
    List<GroupEntry> groups = new ArrayList<>();
    for (Map<Long, Entries> bySwitch : owners.values()) {
      Entries e = bySwitch.get(dpid);
      if (e != null) {
        flows.addAll(e.flows().values());
        groups.addAll(e.groups().values());
      }
    }
    return new DesiredState(flows, groups);
  }

  private Entries entries(Owner owner, long dpid) {
    return owners
        .computeIfAbsent(owner, o -> new HashMap<>())
        .computeIfAbsent(dpid, d -> new Entries());
  }

  private static void apply(Map<FlowKey, FlowEntry> flows, FlowMod m) {
    FlowKey key = new FlowKey(m.tableId(), m.priority(), m.match());
    if (m.command() == FlowModCommand.DELETE) {
      flows.values().removeIf(m::deletes);
    } else if (m.command().isDelete()) {
      flows.remove(key);
    } else {
      flows.put(key, m.toEntry());
    }
  }

  private static void apply(Map<Long, GroupEntry> groups, GroupMod m) {
    if (m.command() == GroupModCommand.DELETE) {
      groups.remove(m.groupId());
    } else {
      groups.put(m.groupId(), m.toEntry());
    }
  }
}
