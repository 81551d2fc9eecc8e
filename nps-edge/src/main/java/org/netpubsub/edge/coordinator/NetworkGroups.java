package org.netpubsub.edge.coordinator;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.netpubsub.edge.mqtt.TopicFilters;

/**
 * Network mode: one controller group per topic whose members are the edges subscribed to it and
 * whose sources are the edges that published on it. Re-put when the members change, deleted when
 * none are left. Callers serialise calls (the coordinator's lock).
 */
final class NetworkGroups {
  private static final Logger LOG = Logger.getLogger(NetworkGroups.class.getName());

  private static final class Live {
    final String name;
    final Set<String> sources = new TreeSet<>();
    List<String> members = List.of(); // addresses last put; empty: not put since start
    Map<String, String> sendTo = Map.of();

    Live(String name) {
      this.name = name;
    }
  }

  private final GroupController controller;
  private final CoordinatorStore store;
  private final Map<String, Live> groups = new HashMap<>();

  NetworkGroups(GroupController controller, CoordinatorStore store) {
    this.controller = controller;
    this.store = store;
    for (CoordinatorStore.Group g : store.groups()) {
      Live l = new Live(g.name());
      l.sources.addAll(g.sources());
      groups.put(g.topic(), l);
    }
  }

  /** The group name of {@code topic}: URL-safe and stable. */
  static String groupName(String topic) {
    try {
      byte[] h =
          MessageDigest.getInstance("SHA-256").digest(topic.getBytes(StandardCharsets.UTF_8));
      return "mqtt-" + HexFormat.of().formatHex(h, 0, 10);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The address {@code origin} sends {@code topic} to, putting the group first if the members or
   * sources changed; {@code members} is not empty.
   */
  String sendTo(String topic, Edge origin, List<Edge> members, Map<String, Edge> edges) {
    Live l = groups.computeIfAbsent(topic, t -> new Live(groupName(t)));
    boolean newSource = l.sources.add(origin.name());
    List<String> addresses = addresses(members);
    if (newSource || !addresses.equals(l.members) || !l.sendTo.containsKey(origin.address())) {
      put(topic, l, addresses, edges);
    }
    return l.sendTo.get(origin.address());
  }

  /** Re-puts or deletes the groups of topics one of {@code changedFilters} matches. */
  void membershipChanged(CoordinatorState state, List<String> changedFilters) {
    for (Map.Entry<String, Live> en : List.copyOf(groups.entrySet())) {
      String topic = en.getKey();
      if (changedFilters.stream().noneMatch(f -> TopicFilters.matches(f, topic))) {
        continue;
      }
      Live l = en.getValue();
      List<String> addresses = addresses(state.members(topic));
      try {
        if (addresses.isEmpty()) {
          controller.delete(l.name);
          groups.remove(topic);
          store.removeGroup(topic);
        } else {
          put(topic, l, addresses, state.edges());
        }
      } catch (RuntimeException e) {
        // the next route question for the topic puts it again
        l.members = List.of();
        LOG.log(Level.WARNING, "group " + l.name + " for '" + topic + "': " + e.getMessage());
      }
    }
  }

  Optional<String> name(String topic) {
    return Optional.ofNullable(groups.get(topic)).map(l -> l.name);
  }

  private void put(String topic, Live l, List<String> addresses, Map<String, Edge> edges) {
    l.sources.retainAll(edges.keySet());
    List<String> sources = new ArrayList<>();
    for (String s : l.sources) {
      sources.add(edges.get(s).address());
    }
    l.sendTo = controller.put(l.name, addresses, sources);
    l.members = addresses;
    store.putGroup(new CoordinatorStore.Group(topic, l.name, l.sources));
  }

  private static List<String> addresses(List<Edge> members) {
    return members.stream().map(Edge::address).distinct().sorted().toList();
  }
}
