package org.netpubsub.edge.overlay;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A snapshot of the overlay's znode tree: topics and live routing brokers. Built from (path, data)
 * pairs as a CuratorCache holds them; nodes that do not parse are counted in {@link #malformed} and
 * left out (a bad node must not stop the overlay). Pure and immutable.
 */
public record OverlayView(
    SortedMap<String, TopicState> topics, SortedMap<String, BrokerInfo> brokers, int malformed) {
  public OverlayView {
    topics = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(topics));
    brokers = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(brokers));
  }

  public static final OverlayView EMPTY = new OverlayView(new TreeMap<>(), new TreeMap<>(), 0);

  public Optional<TopicState> topic(String topic) {
    return Optional.ofNullable(topics.get(topic));
  }

  /** Reads a tree given as znode path → data (null data: the node has none), versions 0. */
  public static OverlayView of(Map<String, byte[]> nodes) {
    return of(nodes, p -> 0);
  }

  /** Reads a tree given as znode path → data and each node's data version. */
  public static OverlayView of(
      Map<String, byte[]> nodes, java.util.function.ToIntFunction<String> versions) {
    return of(nodes, versions, edge -> null);
  }

  /**
   * As above, where an endpoint entry cached without its data (null) is the endpoint {@code
   * directory} gives for its edge (the {@code /edges} records); an entry the directory does not
   * know yet is left out until it does.
   */
  public static OverlayView of(
      Map<String, byte[]> nodes,
      java.util.function.ToIntFunction<String> versions,
      java.util.function.Function<String, Endpoint> directory) {
    Map<String, Integer> topicVersions = new HashMap<>();
    Map<String, Optional<Assignment>> assigned = new HashMap<>();
    Map<String, Map<String, Endpoint>> pubs = new HashMap<>();
    Map<String, Map<String, Endpoint>> subs = new HashMap<>();
    java.util.Set<String> pubNodes = new java.util.HashSet<>();
    java.util.Set<String> subNodes = new java.util.HashSet<>();
    TreeMap<String, BrokerInfo> brokers = new TreeMap<>();
    int malformed = 0;
    for (Map.Entry<String, byte[]> n : nodes.entrySet()) {
      String[] parts = n.getKey().split("/", -1);
      byte[] data = n.getValue();
      try {
        if (parts.length == 3 && parts[1].equals("brokers")) {
          brokers.put(ZnodePaths.checkName(parts[2]), ZnodeData.broker(data));
        } else if (parts.length >= 3 && parts[1].equals("topics")) {
          String topic = ZnodePaths.decodeTopic(parts[2]);
          assigned.putIfAbsent(topic, Optional.empty());
          if (parts.length == 3) {
            topicVersions.put(topic, versions.applyAsInt(n.getKey()));
          }
          if (parts.length == 3 && data != null && data.length > 0) {
            assigned.put(topic, Optional.of(ZnodeData.assignment(data)));
          } else if (parts.length == 5
              && (parts[3].equals(ZnodePaths.PUB) || parts[3].equals(ZnodePaths.SUB))) {
            String edge = ZnodePaths.checkName(parts[4]);
            Endpoint e = data == null ? directory.apply(edge) : ZnodeData.endpoint(data);
            if (e != null) {
              (parts[3].equals(ZnodePaths.PUB) ? pubs : subs)
                  .computeIfAbsent(topic, k -> new HashMap<>())
                  .put(edge, e);
            }
          } else if (parts.length == 4 && parts[3].equals(ZnodePaths.PUB)) {
            pubNodes.add(topic);
          } else if (parts.length == 4 && parts[3].equals(ZnodePaths.SUB)) {
            subNodes.add(topic);
          } else if (parts.length != 3) {
            malformed++;
          }
        }
      } catch (IllegalArgumentException e) {
        malformed++;
      }
    }
    TreeMap<String, TopicState> topics = new TreeMap<>();
    for (Map.Entry<String, Optional<Assignment>> t : assigned.entrySet()) {
      topics.put(
          t.getKey(),
          new TopicState(
              t.getValue(),
              topicVersions.getOrDefault(t.getKey(), -1),
              pubs.getOrDefault(t.getKey(), Map.of()),
              subs.getOrDefault(t.getKey(), Map.of()),
              pubNodes.contains(t.getKey()),
              subNodes.contains(t.getKey())));
    }
    return new OverlayView(topics, brokers, malformed);
  }
}
