package org.netpubsub.network.controlplane;

import java.util.HashMap;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.index.DzSet;

/**
 * The dispatcher's pure part (PLEROMA §IV-A 1): splits each request into one partial request per
 * partition it touches. It remembers what every standing addition was split into, so that a
 * withdrawal, which names only the id, reaches exactly the partitions that hold it. Not
 * thread-safe: one owner dispatches in order.
 */
public final class Dispatcher {
  private final Partitions partitions;
  private final Map<String, ControlRequest> standing = new HashMap<>();

  public Dispatcher(Partitions partitions) {
    this.partitions = partitions;
  }

  public Partitions partitions() {
    return partitions;
  }

  /**
   * The partial requests per partition. An addition with an id already standing, or a withdrawal of
   * an unknown id, is refused with IllegalArgumentException and changes nothing; a withdrawal's own
   * cells are ignored in favour of those of what it withdraws.
   */
  public SortedMap<Dz, ControlRequest> split(ControlRequest r) {
    if (r.kind().adds()) {
      if (standing.containsKey(r.id())) {
        throw new IllegalArgumentException("a request with id " + r.id() + " exists");
      }
      standing.put(r.id(), r);
      return parts(r);
    }
    ControlRequest added = standing.get(r.id());
    if (added == null || added.kind().isSubscription() != r.kind().isSubscription()) {
      throw new IllegalArgumentException(
          "no " + (r.kind().isSubscription() ? "subscription " : "advertisement ") + r.id());
    }
    standing.remove(r.id());
    return parts(added.withdrawal());
  }

  /** The number of standing advertisements and subscriptions. */
  public int standing() {
    return standing.size();
  }

  private SortedMap<Dz, ControlRequest> parts(ControlRequest r) {
    SortedMap<Dz, ControlRequest> out = new TreeMap<>();
    for (Map.Entry<Dz, DzSet> e : partitions.split(r.cells()).entrySet()) {
      out.put(e.getKey(), r.withCells(e.getValue()));
    }
    return out;
  }
}
