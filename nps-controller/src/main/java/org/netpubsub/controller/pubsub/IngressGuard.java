package org.netpubsub.controller.pubsub;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.LongFunction;
import java.util.function.Supplier;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.filter.Filter;
import org.netpubsub.content.filter.FilterParser;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.content.index.DzSet;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.controller.flows.FlowService;
import org.netpubsub.controller.southbound.SwitchHandle;
import org.netpubsub.controller.southbound.SwitchMod;
import org.netpubsub.network.camus.openflow.QueryAddressLayout;
import org.netpubsub.network.camus.openflow.QueryIngress;
import org.netpubsub.network.layout.Owner;
import org.netpubsub.network.layout.SwitchLayout;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.FlowStats;
import org.netpubsub.network.pleroma.ContentFlows;
import org.netpubsub.network.pleroma.IngressDrops;
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
  /** A host port's entries, from the hosts at it (one snapshot of the advertisements). */
  interface PortRules {
    List<FlowEntry> entries(long port, List<Ipv6Address> hosts);
  }

  private final FlowService flows;
  private final Supplier<PortRules> rules;
  private final BooleanSupplier writes;
  private final LongFunction<Optional<SwitchHandle>> switches;
  private Topology topology = Topology.EMPTY;
  private Map<SwitchPort, List<FlowEntry>> installed = Map.of();

  IngressGuard(
      FlowService flows,
      Supplier<PortRules> rules,
      BooleanSupplier writes,
      LongFunction<Optional<SwitchHandle>> switches) {
    this.flows = flows;
    this.rules = rules;
    this.writes = writes;
    this.switches = switches;
  }

  /** Guards every host port of {@code flows}' switches by {@code service}'s advertisements. */
  public static IngressGuard attach(
      FlowService flows, PubSubService service, LongFunction<Optional<SwitchHandle>> switches) {
    return attach(
        flows,
        pleroma(() -> byHost(service.requests(PubSubRequest.Kind.ADVERTISEMENT))),
        () -> true,
        switches);
  }

  /**
   * With Camus routing: every host port forwards only the query addresses inside its hosts'
   * advertisements, each cut to {@code filter ∧ advertise region} ({@link QueryIngress}).
   */
  public static IngressGuard attachCamus(
      FlowService flows, PubSubService service, LongFunction<Optional<SwitchHandle>> switches) {
    Schema schema = service.index().schema();
    QueryAddressLayout layout = QueryAddressLayout.of(MessageSpec.fromSchema(schema));
    // by request id and region (a reload's re-cut keeps the id): normalised once
    Map<String, Dnf> normal = new ConcurrentHashMap<>();
    Supplier<PortRules> rules =
        () -> {
          Map<Ipv6Address, List<Dnf>> byHost = new HashMap<>();
          Set<String> live = new HashSet<>();
          for (PubSubRequest a : service.requests(PubSubRequest.Kind.ADVERTISEMENT)) {
            Access granted = service.grants.get(a.id());
            if (granted == null) {
              continue; // its region not recorded yet: closed until the sync after its answer
            }
            String key = a.id() + "\n" + granted.region().orElse("");
            live.add(key);
            Dnf d = normal.computeIfAbsent(key, id -> cut(schema, a.filter(), granted));
            byHost.computeIfAbsent(a.host(), h -> new ArrayList<>()).add(d);
          }
          normal.keySet().retainAll(live);
          return (port, hosts) -> {
            List<Dnf> dnfs = new ArrayList<>();
            hosts.forEach(h -> dnfs.addAll(byHost.getOrDefault(h, List.of())));
            return QueryIngress.entries(
                layout, port, dnfs, SwitchLayout.CAMUS_FIRST_TABLE, ContentFlows.EVENT_PORT);
          };
        };
    return attach(flows, rules, () -> true, switches);
  }

  /** An advertisement's {@code filter ∧ region} (the region it was accepted under, if any). */
  private static Dnf cut(Schema schema, String filter, Access granted) {
    Filter f = FilterParser.parse(schema, filter);
    Optional<String> region = granted.region();
    return Normalizer.toDnf(
        region.isEmpty()
            ? f
            : new Filter.And(List.of(f, FilterParser.parse(schema, region.get()))));
  }

  /** Guards by {@code rules}, writing while {@code writes} (a cluster's writer). */
  static IngressGuard attach(
      FlowService flows,
      Supplier<PortRules> rules,
      BooleanSupplier writes,
      LongFunction<Optional<SwitchHandle>> switches) {
    IngressGuard g = new IngressGuard(flows, rules, writes, switches);
    flows.register(Owner.INGRESS, g).join();
    return g;
  }

  /** PLEROMA's drops: the content space less the cells the port's hosts advertised. */
  static Supplier<PortRules> pleroma(Supplier<Map<Ipv6Address, DzSet>> advertised) {
    return () -> {
      Map<Ipv6Address, DzSet> cells = advertised.get();
      return (port, hosts) -> {
        DzSet allowed = DzSet.EMPTY;
        for (Ipv6Address h : hosts) {
          allowed = allowed.union(cells.getOrDefault(h, DzSet.EMPTY));
        }
        return IngressDrops.entries(port, allowed);
      };
    };
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
   * A cluster process becomes the writer: on the loop, {@code start} says so to the reconciles
   * ({@code writes} is true from then on) and the store takes the drops in the same step, then
   * every switch is reconciled in turn with its other reconciles: one that planned meanwhile from
   * the store without the drops (a multicast takeover's) is followed by one with them, so the
   * switches end holding exactly what the advertisements want, whatever an earlier writer left
   * there. Fails without touching anything unless {@code fence} holds on the loop; completes when
   * acknowledged.
   */
  CompletableFuture<Void> takeOver(BooleanSupplier fence, Runnable start) {
    return flows
        .callOnLoop(
            () -> {
              if (!fence.getAsBoolean()) {
                return CompletableFuture.<Void>failedFuture(new Fenced());
              }
              start.run();
              store();
              return CompletableFuture.allOf(
                  topology.switches().stream()
                      .map(flows::reconcile)
                      .toArray(CompletableFuture[]::new));
            })
        .thenCompose(f -> f);
  }

  /** A write refused: this process no longer (provably) holds the cluster's writer latch. */
  static final class Fenced extends Exception {
    Fenced() {
      super("not the cluster's ingress writer any more: nothing written");
    }
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
    return sync(() -> true);
  }

  /** {@link #sync()}, failing without touching anything unless {@code fence} holds on the loop. */
  CompletableFuture<Integer> sync(BooleanSupplier fence) {
    return flows
        .callOnLoop(
            () -> {
              if (!fence.getAsBoolean()) {
                return CompletableFuture.<Integer>failedFuture(new Fenced());
              }
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
    PortRules r = rules.get();
    Map<SwitchPort, List<Ipv6Address>> at = new HashMap<>();
    new TreeMap<>(topology.hosts())
        .values()
        .forEach(h -> at.computeIfAbsent(h.attachment(), p -> new ArrayList<>()).add(h.address()));
    Map<SwitchPort, List<FlowEntry>> out = new HashMap<>();
    for (SwitchPort p : topology.edgePorts()) {
      out.put(p, r.entries(p.port(), at.getOrDefault(p, List.of())));
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
                  if (e.cookie() == IngressDrops.COOKIE
                      && e.priority() == IngressDrops.PRIORITY // the drops, not Camus's allows
                      && e.match().inPort() != null) {
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
