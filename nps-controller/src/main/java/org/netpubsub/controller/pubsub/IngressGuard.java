package org.netpubsub.controller.pubsub;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.LongFunction;
import java.util.function.Supplier;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.index.DzSet;
import org.netpubsub.controller.flows.FlowService;
import org.netpubsub.controller.southbound.SwitchHandle;
import org.netpubsub.controller.southbound.SwitchMod;
import org.netpubsub.network.layout.Owner;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.FlowStats;
import org.netpubsub.network.pleroma.IngressDrops;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;

/**
 * Publishing enforced by the network (docs/security.md): every host port (a port without a link)
 * drops the content addresses outside what its hosts advertised ({@link IngressDrops}); a port
 * whose hosts advertised nothing injects no content address at all. Attached only with {@code
 * --auth}: without principals every host may publish anywhere, as before. The drops are written as
 * {@link Owner#INGRESS}: in full on a topology change, and per changed port after an advertisement
 * or withdrawal ({@link #sync}). Their packet counters are the dropped packets ({@link #dropped}).
 * In a cluster only the process that {@code writes} keeps and writes drops ({@link
 * ClusterIngress}); the others want none. Loop state is touched on the flow service's loop only.
 */
public final class IngressGuard implements FlowService.Listener, Ingress {
  private final FlowService flows;
  private final Supplier<Map<Ipv6Address, DzSet>> advertised;
  private final BooleanSupplier writes;
  private final LongFunction<Optional<SwitchHandle>> switches;
  private Topology topology = Topology.EMPTY;
  private Map<SwitchPort, List<FlowEntry>> installed = Map.of();

  IngressGuard(
      FlowService flows,
      Supplier<Map<Ipv6Address, DzSet>> advertised,
      BooleanSupplier writes,
      LongFunction<Optional<SwitchHandle>> switches) {
    this.flows = flows;
    this.advertised = advertised;
    this.writes = writes;
    this.switches = switches;
  }

  /** Guards every host port of {@code flows}' switches by {@code service}'s advertisements. */
  public static IngressGuard attach(
      FlowService flows, PubSubService service, LongFunction<Optional<SwitchHandle>> switches) {
    return attach(
        flows,
        () -> byHost(service.requests(PubSubRequest.Kind.ADVERTISEMENT)),
        () -> true,
        switches);
  }

  /** Guards by the advertised cells per host, writing while {@code writes} (a cluster's writer). */
  static IngressGuard attach(
      FlowService flows,
      Supplier<Map<Ipv6Address, DzSet>> advertised,
      BooleanSupplier writes,
      LongFunction<Optional<SwitchHandle>> switches) {
    IngressGuard g = new IngressGuard(flows, advertised, writes, switches);
    flows.register(Owner.INGRESS, g).join();
    return g;
  }

  /** The cells each host advertised (the union of its advertisements' covers). */
  static Map<Ipv6Address, DzSet> byHost(List<PubSubRequest> advertisements) {
    Map<Ipv6Address, DzSet> out = new HashMap<>();
    advertisements.forEach(a -> out.merge(a.host(), a.cells(), DzSet::union));
    return out;
  }

  @Override
  public void topologyChanged(Topology next) {
    topology = next;
    store();
  }

  /** The drops of every host port into the store, nothing sent. On the loop. */
  private void store() {
    installed = desired();
    for (long dpid : topology.switches()) {
      flows.replace(Owner.INGRESS, dpid, on(dpid), List.of());
    }
  }

  private List<FlowEntry> on(long dpid) {
    List<FlowEntry> out = new ArrayList<>();
    installed.forEach(
        (p, f) -> {
          if (p.dpid() == dpid) {
            out.addAll(f);
          }
        });
    return out;
  }

  /**
   * A cluster process became the writer ({@code writes} is true now): every switch's drops are
   * brought to exactly what the advertisements want, whatever an earlier writer left there;
   * completes when acknowledged.
   */
  CompletableFuture<Void> takeOver() {
    return flows
        .callOnLoop(
            () -> {
              store();
              List<CompletableFuture<Void>> done = new ArrayList<>();
              for (long dpid : topology.switches()) {
                done.add(
                    flows.reconcileScoped(dpid, f -> f.cookie() == IngressDrops.COOKIE, on(dpid)));
              }
              return CompletableFuture.allOf(done.toArray(CompletableFuture[]::new));
            })
        .thenCompose(f -> f);
  }

  /**
   * A cluster process stopped writing ({@code writes} is false now): its store forgets the drops;
   * nothing is sent (the next writer's stay on the switches).
   */
  CompletableFuture<Void> release() {
    return flows.callOnLoop(
        () -> {
          store();
          return null;
        });
  }

  /**
   * Brings the drops in line with the standing advertisements, writing only the ports whose drops
   * changed; completes when the switches acknowledged (call after an advertisement or withdrawal,
   * before answering it, so that a publisher may send once answered).
   */
  @Override
  public CompletableFuture<Integer> sync() {
    return flows
        .callOnLoop(
            () -> {
              if (!writes.getAsBoolean()) {
                return CompletableFuture.completedFuture(0); // not the writer: release() forgets
              }
              Map<SwitchPort, List<FlowEntry>> next = desired();
              SortedMap<Long, List<SwitchMod>> ops = new TreeMap<>();
              for (SwitchPort p : topology.edgePorts()) {
                List<FlowEntry> before = installed.getOrDefault(p, List.of());
                List<FlowEntry> after = next.getOrDefault(p, List.of());
                if (!before.equals(after)) {
                  List<SwitchMod> mods = ops.computeIfAbsent(p.dpid(), d -> new ArrayList<>());
                  before.stream()
                      .filter(f -> !after.contains(f))
                      .forEach(f -> mods.add(SwitchMod.of(FlowMod.deleteStrict(f))));
                  after.stream()
                      .filter(f -> !before.contains(f))
                      .forEach(f -> mods.add(SwitchMod.of(FlowMod.add(f))));
                }
              }
              installed = next;
              return ops.isEmpty()
                  ? CompletableFuture.completedFuture(0)
                  : flows.apply(Owner.INGRESS, ops);
            })
        .thenCompose(f -> f);
  }

  /**
   * Each host port's drops: the content space less its hosts' advertised cells; none unless this
   * process writes them. On the loop.
   */
  private Map<SwitchPort, List<FlowEntry>> desired() {
    if (!writes.getAsBoolean()) {
      return Map.of();
    }
    Map<SwitchPort, DzSet> allowed = new HashMap<>();
    advertised
        .get()
        .forEach(
            (host, cells) ->
                topology
                    .host(host)
                    .map(Host::attachment)
                    .ifPresent(p -> allowed.merge(p, cells, DzSet::union)));
    Map<SwitchPort, List<FlowEntry>> out = new HashMap<>();
    for (SwitchPort p : topology.edgePorts()) {
      out.put(p, IngressDrops.entries(p.port(), allowed.getOrDefault(p, DzSet.EMPTY)));
    }
    return out;
  }

  /**
   * The packets each host port dropped, read from the connected switches' flow counters (the drops
   * of one port summed). A switch that does not answer is left out. In a cluster any process reads
   * them: every process is connected to every switch.
   */
  @Override
  public CompletableFuture<SortedMap<SwitchPort, Long>> dropped() {
    List<CompletableFuture<List<FlowStats>>> asked = new ArrayList<>();
    List<Long> dpids = new ArrayList<>();
    for (long dpid : flows.connectedSwitches()) {
      switches
          .apply(dpid)
          .ifPresent(
              sw -> {
                dpids.add(dpid);
                asked.add(
                    sw.flowCounters(IngressDrops.COOKIE)
                        .exceptionally(e -> List.of())
                        .toCompletableFuture());
              });
    }
    return CompletableFuture.allOf(asked.toArray(CompletableFuture[]::new))
        .thenApply(
            v -> {
              SortedMap<SwitchPort, Long> out = new TreeMap<>();
              for (int i = 0; i < asked.size(); i++) {
                for (FlowStats s : asked.get(i).join()) {
                  FlowEntry e = s.entry();
                  if (e.cookie() == IngressDrops.COOKIE && e.match().inPort() != null) {
                    out.merge(
                        new SwitchPort(dpids.get(i), e.match().inPort()),
                        s.packetCount(),
                        Long::sum);
                  }
                }
              }
              return out;
            });
  }
}
