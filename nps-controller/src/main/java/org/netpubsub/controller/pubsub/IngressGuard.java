package org.netpubsub.controller.pubsub;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongFunction;
import java.util.function.Supplier;
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
 * Loop state is touched on the flow service's loop only.
 */
public final class IngressGuard implements FlowService.Listener {
  private final FlowService flows;
  private final Supplier<List<PubSubRequest>> advertisements;
  private final LongFunction<Optional<SwitchHandle>> switches;
  private Topology topology = Topology.EMPTY;
  private Map<SwitchPort, List<FlowEntry>> installed = Map.of();

  IngressGuard(
      FlowService flows,
      Supplier<List<PubSubRequest>> advertisements,
      LongFunction<Optional<SwitchHandle>> switches) {
    this.flows = flows;
    this.advertisements = advertisements;
    this.switches = switches;
  }

  /** Guards every host port of {@code flows}' switches by {@code service}'s advertisements. */
  public static IngressGuard attach(
      FlowService flows, PubSubService service, LongFunction<Optional<SwitchHandle>> switches) {
    IngressGuard g =
        new IngressGuard(flows, () -> service.requests(PubSubRequest.Kind.ADVERTISEMENT), switches);
    flows.register(Owner.INGRESS, g).join();
    return g;
  }

  @Override
  public void topologyChanged(Topology next) {
    topology = next;
    installed = desired();
    for (long dpid : next.switches()) {
      List<FlowEntry> on = new ArrayList<>();
      installed.forEach(
          (p, f) -> {
            if (p.dpid() == dpid) {
              on.addAll(f);
            }
          });
      flows.replace(Owner.INGRESS, dpid, on, List.of());
    }
  }

  /**
   * Brings the drops in line with the standing advertisements, writing only the ports whose drops
   * changed; completes when the switches acknowledged (call after an advertisement or withdrawal,
   * before answering it, so that a publisher may send once answered).
   */
  public CompletableFuture<Integer> sync() {
    return flows
        .callOnLoop(
            () -> {
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

  /** Each host port's drops: the content space less its hosts' advertised cells. On the loop. */
  private Map<SwitchPort, List<FlowEntry>> desired() {
    Map<SwitchPort, DzSet> allowed = new HashMap<>();
    for (PubSubRequest a : advertisements.get()) {
      topology
          .host(a.host())
          .map(Host::attachment)
          .ifPresent(p -> allowed.merge(p, a.cells(), DzSet::union));
    }
    Map<SwitchPort, List<FlowEntry>> out = new HashMap<>();
    for (SwitchPort p : topology.edgePorts()) {
      out.put(p, IngressDrops.entries(p.port(), allowed.getOrDefault(p, DzSet.EMPTY)));
    }
    return out;
  }

  /**
   * The packets each host port dropped, read from the connected switches' flow counters (the drops
   * of one port summed). A switch that does not answer is left out.
   */
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
