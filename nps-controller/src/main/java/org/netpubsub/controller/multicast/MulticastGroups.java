package org.netpubsub.controller.multicast;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.netpubsub.controller.flows.FlowService;
import org.netpubsub.controller.flows.FlowStore;
import org.netpubsub.controller.southbound.DesiredState;
import org.netpubsub.controller.southbound.Reconciler;
import org.netpubsub.controller.southbound.SwitchMod;
import org.netpubsub.network.layout.Owner;
import org.netpubsub.network.multicast.GroupForwarding;
import org.netpubsub.network.multicast.GroupSpec;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;

/**
 * The controller app behind {@code /v1/groups}: keeps every group's trees and segments in a {@link
 * GroupForwarding} (touched only on the controller loop), writes the switches' multicast flows and
 * groups through the {@link FlowService} as {@link Owner#MULTICAST_GROUPS}, and brings the switches
 * whose state changed in line before a request completes. A request (put, remove, avoid) applies
 * only its delta: per changed switch, the ops from the entries the service stores for this owner to
 * the new ones ({@link #delta}). A topology change replaces the entries and the service reconciles;
 * a takeover in a cluster ({@link #startWriting}, {@link #stopWriting}) replaces and reconciles,
 * since another process wrote the switches before. A switch that is not connected gets its state
 * when it connects.
 */
public final class MulticastGroups implements FlowService.Listener {
  private final FlowService controller;
  private GroupForwarding forwarding = new GroupForwarding(Topology.EMPTY); // loop only
  private Topology topology = Topology.EMPTY; // loop only
  private volatile boolean writing = true;
  private volatile int maxGroups = MAX_GROUPS;
  private volatile Journal journal = IN_MEMORY;
  private volatile Supplier<String> held = () -> null; // why changes wait now (null: they don't)

  /**
   * Where a group's change is kept before it is answered ({@code --store}, docs/controller.md
   * "Restart"). Each call is made on the loop in the order the groups changed there; the write
   * itself must not run on the loop.
   */
  public interface Journal {
    CompletableFuture<Void> put(GroupSpec spec);

    CompletableFuture<Void> removed(String name);
  }

  private static final Journal IN_MEMORY =
      new Journal() {
        @Override
        public CompletableFuture<Void> put(GroupSpec spec) {
          return CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletableFuture<Void> removed(String name) {
          return CompletableFuture.completedFuture(null);
        }
      };

  /** Groups at most, by default: each costs flows and group entries on its tree's switches. */
  public static final int MAX_GROUPS = 4_096;

  private MulticastGroups(FlowService controller) {
    this.controller = controller;
  }

  /** Starts the app on a controller. */
  public static MulticastGroups attach(FlowService controller) {
    MulticastGroups g = new MulticastGroups(controller);
    controller.register(Owner.MULTICAST_GROUPS, g).join();
    return g;
  }

  /** Sets the cap on the number of groups (tests use a small one); returns this. */
  public MulticastGroups maxGroups(int n) {
    this.maxGroups = n;
    return this;
  }

  /** The cap on the number of groups. */
  public int maxGroups() {
    return maxGroups;
  }

  /** The refusal of a new group when there are {@code cap} already (a cluster's registry too). */
  public static TooManyGroups tooMany(int cap) {
    return new TooManyGroups(
        "there are " + cap + " multicast groups already (the limit of groups)");
  }

  /**
   * A restarted controller's groups ({@code --store}): they join the trees without a switch
   * message, before the restart's hold lets any switch be reconciled, so the reconcile finds the
   * switches' multicast entries as they should be. From then on every change is kept in {@code
   * journal} before its answer, and changes are refused with {@link Held} while {@code held} gives
   * a reason.
   */
  public CompletableFuture<Void> restore(
      List<GroupSpec> specs, Journal journal, Supplier<String> held) {
    return controller.callOnLoop(
        () -> {
          specs.forEach(forwarding::put); // entry SIDs and segments are hashed: any order will do
          topology.switches().forEach(this::store);
          this.journal = journal;
          this.held = held;
          return null;
        });
  }

  /**
   * Creates or replaces a group; completes once the switches hold its trees (and the journal the
   * group), or with {@link TooManyGroups} for a new group beyond the cap.
   */
  public CompletableFuture<GroupForwarding.Placement> put(GroupSpec spec) {
    return controller
        .callOnLoop(
            () -> {
              notHeld();
              int cap = maxGroups;
              if (forwarding.placement(spec.name()).isEmpty() && forwarding.specs().size() >= cap) {
                throw tooMany(cap);
              }
              Set<Long> changed = forwarding.put(spec);
              GroupForwarding.Placement p = forwarding.placement(spec.name()).orElseThrow();
              CompletableFuture<Void> kept = kept(journal.put(spec));
              return applyDelta(changed).thenCombine(kept, (a, b) -> p);
            })
        .thenCompose(f -> f);
  }

  /** Removes a group; completes with false if there was none. */
  public CompletableFuture<Boolean> remove(String name) {
    return controller
        .callOnLoop(
            () -> {
              notHeld();
              boolean known = forwarding.placement(name).isPresent();
              CompletableFuture<Void> kept =
                  known ? kept(journal.removed(name)) : CompletableFuture.completedFuture(null);
              return applyDelta(forwarding.remove(name)).thenCombine(kept, (a, b) -> known);
            })
        .thenCompose(f -> f);
  }

  /**
   * Moves the trees off these links (traffic engineering); completes once the switches follow.
   * During a restart's hold only the entries change: the hold's end reconciles every switch.
   */
  public CompletableFuture<Void> avoid(Set<Link> links) {
    return controller
        .callOnLoop(
            () -> {
              Set<Long> changed = forwarding.avoid(links);
              if (held.get() != null) {
                changed.forEach(this::store);
                return CompletableFuture.<Void>completedFuture(null);
              }
              return applyDelta(changed);
            })
        .thenCompose(f -> f);
  }

  /** On the loop: a change now would be planned on a half-learnt topology. */
  private void notHeld() {
    String why = held.get();
    if (why != null) {
      throw new Held(why);
    }
  }

  private static CompletableFuture<Void> kept(CompletableFuture<Void> write) {
    return write.exceptionally(
        e -> {
          throw new NotKept(
              e instanceof java.util.concurrent.CompletionException c ? c.getCause() : e);
        });
  }

  public CompletableFuture<Optional<GroupForwarding.Placement>> placement(String name) {
    return controller.callOnLoop(() -> forwarding.placement(name));
  }

  /** Every group as embedded now, and the number of segments installed. */
  public CompletableFuture<Snapshot> snapshot() {
    return controller.callOnLoop(
        () -> {
          List<GroupForwarding.Placement> all = new ArrayList<>();
          forwarding.specs().forEach(s -> all.add(forwarding.placement(s.name()).orElseThrow()));
          return new Snapshot(all, forwarding.segmentCount(), forwarding.avoidedLinks());
        });
  }

  /** A new group beyond {@link #maxGroups}: the REST layer answers 429 with the message. */
  public static final class TooManyGroups extends RuntimeException {
    private static final long serialVersionUID = 1L;

    TooManyGroups(String message) {
      super(message);
    }
  }

  /** A change while a restarted controller holds reconciles: the REST layer answers 503. */
  public static final class Held extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Held(String message) {
      super(message);
    }
  }

  /** The store did not keep a change (the switches may hold it): the REST layer answers 503. */
  public static final class NotKept extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NotKept(Throwable cause) {
      super("the store did not keep the change: " + cause.getMessage(), cause);
    }
  }

  /** Every group, the segments they share, and the links the trees avoid. */
  public record Snapshot(
      List<GroupForwarding.Placement> groups, int segments, Set<Link> avoidedLinks) {}

  /**
   * On the loop: applies to the changed switches only the ops from their stored multicast entries
   * to the new ones; completes once the connected ones acknowledged.
   */
  private CompletableFuture<Void> applyDelta(Collection<Long> dpids) {
    SortedMap<Long, List<SwitchMod>> ops = new TreeMap<>(SwitchPort.DPID_ORDER);
    for (long dpid : dpids) {
      List<SwitchMod> d = delta(controller.owned(Owner.MULTICAST_GROUPS, dpid), entries(dpid));
      if (!d.isEmpty()) {
        ops.put(dpid, d);
      }
    }
    return controller.apply(Owner.MULTICAST_GROUPS, ops).thenApply(n -> null);
  }

  /**
   * The ops that turn an owner's entries {@code before} into {@code after}, in the order a switch
   * takes them (the reconciler's: a group before what names it, flows before the groups they name
   * go). Pure.
   */
  static List<SwitchMod> delta(FlowStore.Owned before, DesiredState after) {
    return Reconciler.plan(after, before.flows(), before.groups()).mods();
  }

  /** The switch's multicast entries now: none while another process writes them. */
  private DesiredState entries(long dpid) {
    return writing
        ? new DesiredState(forwarding.flows(dpid), forwarding.groups(dpid))
        : DesiredState.EMPTY;
  }

  /** On the loop: stores the switches' new multicast state and reconciles them to it. */
  private CompletableFuture<Void> sync(Collection<Long> dpids) {
    dpids.forEach(this::store);
    return CompletableFuture.allOf(
        dpids.stream().map(controller::reconcile).toArray(CompletableFuture[]::new));
  }

  private void store(long dpid) {
    DesiredState e = entries(dpid);
    controller.replace(Owner.MULTICAST_GROUPS, dpid, e.flows(), e.groups());
  }

  /**
   * In a cluster of controller processes, one writes the multicast state: this one starts writing
   * with {@code specs} (in any order: segment indices and entry SIDs are hashes of their content),
   * numbering entry SIDs from {@code entrySidBase} (its own range, so no address its predecessor
   * handed out means another tree now); completes once every switch holds them.
   */
  public CompletableFuture<Void> startWriting(List<GroupSpec> specs, int entrySidBase) {
    return controller
        .callOnLoop(
            () -> {
              forwarding = new GroupForwarding(topology, entrySidBase);
              specs.forEach(forwarding::put);
              writing = true;
              return sync(topology.switches());
            })
        .thenCompose(f -> f);
  }

  /**
   * Another process writes the multicast state: this one keeps no groups and wants none on the
   * switches (its reconciles leave them alone: ReconcileScope).
   */
  public CompletableFuture<Void> stopWriting() {
    return controller
        .callOnLoop(
            () -> {
              writing = false;
              forwarding = new GroupForwarding(topology);
              return sync(topology.switches());
            })
        .thenCompose(f -> f);
  }

  @Override
  public void topologyChanged(Topology next) {
    topology = next;
    forwarding.topologyChanged(next);
    next.switches().forEach(this::store);
  }
}
