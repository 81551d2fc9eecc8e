package org.netpubsub.edge.overlay;

import java.util.List;
import java.util.Map;

/**
 * The data-path decisions of §2.2: a topic leaves a site only when some other site subscribes to
 * it, and a routing broker relays a message only to subscribers in sites other than the
 * publisher's. Pure.
 */
public final class Relay {
  private Relay() {}

  /** True when an edge at {@code site} must send the topic's messages out of the site. */
  public static boolean isGlobal(TopicState t, String site) {
    return t.subscribers().values().stream().anyMatch(e -> !e.site().equals(site));
  }

  /** Where a routing broker sends a message published at edge {@code origin}. */
  public static List<Endpoint> targets(TopicState t, String origin) {
    return targetEdges(t, origin).stream().map(Map.Entry::getValue).toList();
  }

  /** {@link #targets} with each target's edge name (whose key a relayed datagram is sealed in). */
  public static List<Map.Entry<String, Endpoint>> targetEdges(TopicState t, String origin) {
    String site = siteOf(t, origin);
    return t.subscribers().entrySet().stream()
        .filter(e -> !e.getKey().equals(origin) && !e.getValue().site().equals(site))
        .sorted(
            java.util.Comparator.comparing(
                (Map.Entry<String, Endpoint> e) -> ZnodeData.address(e.getValue().address())))
        .toList();
  }

  /** The site of an edge as its entries say; an unknown edge is its own site. */
  public static String siteOf(TopicState t, String edge) {
    Endpoint e = t.publishers().get(edge);
    if (e == null) {
      e = t.subscribers().get(edge);
    }
    return e != null ? e.site() : edge;
  }
}
