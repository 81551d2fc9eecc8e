package org.netpubsub.network.pleroma;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.filter.FilterEvaluator;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.index.DzSet;
import org.netpubsub.content.index.SpatialIndex;

/**
 * PLEROMA's false-positive rate (§V-B3, Fig. 8d–f): of the events the subscriber hosts receive, the
 * share that none of the receiving host's subscriptions wants.
 *
 * <p>What a host receives is what the configurator's flows deliver when one publisher advertises
 * the whole space: every event whose dz lies in a cell of one of the host's subscriptions, one copy
 * per host (its agent owns one port and demultiplexes). {@code ConfiguratorSimulationTest} and
 * {@code FalsePositiveRateTest} prove the flows deliver exactly that. False positives have two
 * sources: dz truncation to L bits, and covers coarsened to the cell budget.
 *
 * <p>Whether a host wants an event does not depend on the index, so it is computed once; {@link
 * #at} then costs one cover per subscription and one lookup per event and host.
 */
public final class FalsePositiveRate {
  /** One subscription: the host that holds it and its filter in normal form. */
  public record HostFilter(String host, Dnf filter) {
    public HostFilter {
      Objects.requireNonNull(host, "host");
      Objects.requireNonNull(filter, "filter");
    }
  }

  /**
   * Events received by all subscriber hosts together, and how many of them no subscription of the
   * receiving host matches.
   */
  public record Count(long received, long unnecessary) {
    /** unnecessary / received, 0 when nothing was received. */
    public double rate() {
      return received == 0 ? 0 : (double) unnecessary / received;
    }
  }

  private final Map<String, List<Dnf>> filtersByHost = new LinkedHashMap<>();
  private final Map<String, BitSet> wantedByHost = new LinkedHashMap<>();
  private final List<Event> events;

  private FalsePositiveRate(List<HostFilter> subscriptions, List<Event> events) {
    this.events = List.copyOf(events);
    for (HostFilter s : subscriptions) {
      filtersByHost.computeIfAbsent(s.host(), h -> new ArrayList<>()).add(s.filter());
    }
    filtersByHost.forEach(
        (host, filters) -> {
          BitSet wanted = new BitSet(this.events.size());
          for (int e = 0; e < this.events.size(); e++) {
            for (Dnf f : filters) {
              if (FilterEvaluator.matches(f, this.events.get(e))) {
                wanted.set(e);
                break;
              }
            }
          }
          wantedByHost.put(host, wanted);
        });
  }

  /** Evaluates every event against every subscription once; {@link #at} reuses the result. */
  public static FalsePositiveRate of(List<HostFilter> subscriptions, List<Event> events) {
    return new FalsePositiveRate(subscriptions, events);
  }

  /** The hosts that hold subscriptions, in order of their first subscription. */
  public List<String> hosts() {
    return List.copyOf(filtersByHost.keySet());
  }

  /** The cells the network delivers to {@code host}: the union of its subscriptions' covers. */
  public DzSet cellsOf(String host, SpatialIndex index, int maxCells) {
    List<Dz> cells = new ArrayList<>();
    for (Dnf f : filtersByHost.getOrDefault(host, List.of())) {
      cells.addAll(index.cover(f, maxCells).members());
    }
    return DzSet.of(cells);
  }

  /** The count when every subscription is covered with {@code maxCells} cells of {@code index}. */
  public Count at(SpatialIndex index, int maxCells) {
    return at(index, maxCells, UnaryOperator.identity());
  }

  /**
   * The count when each host's union of covers is then mapped by {@code perHost} (a flow budget's
   * coarsening, which must return a superset: a missed wanted event is an error).
   */
  public Count at(SpatialIndex index, int maxCells, UnaryOperator<DzSet> perHost) {
    Dz[] dz = new Dz[events.size()];
    for (int e = 0; e < dz.length; e++) {
      dz[e] = index.dz(events.get(e));
    }
    long received = 0;
    long unnecessary = 0;
    for (String host : filtersByHost.keySet()) {
      DzSet cells = perHost.apply(cellsOf(host, index, maxCells));
      BitSet wanted = wantedByHost.get(host);
      for (int e = 0; e < dz.length; e++) {
        if (cells.covers(dz[e])) {
          received++;
          if (!wanted.get(e)) {
            unnecessary++;
          }
        } else if (wanted.get(e)) {
          throw new IllegalStateException(
              "a cover missed an event its filter matches: " + events.get(e) + " at " + host);
        }
      }
    }
    return new Count(received, unnecessary);
  }
}
