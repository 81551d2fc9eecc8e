package org.netpubsub.edge.coordinator;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.netpubsub.edge.mqtt.TopicFilters;

/**
 * The coordinator's logic, pure and not thread-safe: edges, the filters present at each, the routes
 * each agent holds, and the changes each agent has yet to acknowledge. Every change bumps {@link
 * #version}; an agent acknowledges by long-polling with {@code after} at or past it.
 *
 * <p>Members of a topic are the edges with a filter matching it; a route is the members minus the
 * origin, or for a retained message every other edge (a later subscriber anywhere must find it).
 */
public final class CoordinatorState {
  /** A change done at {@code version}; the edges in {@code mustAck} hold routes it affects. */
  public record Change(long version, Set<String> mustAck, List<String> changedFilters) {}

  /**
   * What an agent learns from a poll: drop every route ({@code flush}) or those of topics; {@code
   * exchanges}: the exchanges to mirror changed.
   */
  public record Changes(long version, boolean flush, Set<String> topics, boolean exchanges) {}

  /** An exchange and the edges whose clients declared it. */
  public record MirroredExchange(Exchange exchange, Set<String> edges) {}

  /** The answer to a route question. */
  public record RouteAnswer(long version, List<Edge> targets) {}

  private static final class Session {
    final Set<String> heldTopics = new HashSet<>();
    final Set<String> pendingTopics = new TreeSet<>();
    boolean pendingFlush;
    boolean pendingExchanges;
    long pendingVersion;
    long acked;

    boolean pending() {
      return pendingFlush || pendingExchanges || !pendingTopics.isEmpty();
    }
  }

  private final Map<String, Edge> edges = new TreeMap<>();
  private final Map<String, Set<String>> filters = new HashMap<>();
  private final Map<String, Session> sessions = new HashMap<>();
  private final Map<String, Exchange> exchanges = new TreeMap<>();
  private final Map<String, Set<String>> declaredAt = new TreeMap<>();
  private long version;

  /**
   * Starts past the last version persisted: agents' versions stay comparable after a restart, and
   * the flush owed to restored edges is newer than anything they have acknowledged.
   */
  public CoordinatorState(long persistedVersion) {
    this.version = persistedVersion + 1;
  }

  public long version() {
    return version;
  }

  /**
   * Puts back an edge from the database. Its agent may hold routes this process never gave, so it
   * is owed a flush, and changes wait for its acknowledgement.
   */
  public void restore(Edge e, Collection<String> edgeFilters) {
    edges.put(e.name(), e);
    filters.put(e.name(), new TreeSet<>(edgeFilters));
    Session s = new Session();
    s.pendingFlush = true;
    s.pendingExchanges = true;
    s.pendingVersion = version;
    s.acked = version - 1;
    sessions.put(e.name(), s);
  }

  /** Puts back exchanges declared at edge {@code edge} from the database. */
  public void restoreExchanges(String edge, Collection<Exchange> declared) {
    for (Exchange x : declared) {
      exchanges.putIfAbsent(x.name(), x);
      declaredAt.computeIfAbsent(x.name(), k -> new TreeSet<>()).add(edge);
    }
  }

  /** Every exchange some edge's clients declared, with those edges. */
  public List<MirroredExchange> exchanges() {
    List<MirroredExchange> out = new ArrayList<>();
    exchanges.forEach((n, x) -> out.add(new MirroredExchange(x, Set.copyOf(declaredAt.get(n)))));
    return out;
  }

  /**
   * Exchanges {@code created} or {@code deleted} by clients at edge {@code name}. When an exchange
   * appears (first edge) or goes (last edge), every other agent must mirror the change.
   */
  public Change updateExchanges(
      String name, Collection<Exchange> created, Collection<String> deleted) {
    if (!edges.containsKey(name)) {
      throw new NoSuchElementException("no edge named '" + name + "'");
    }
    boolean changed = false;
    for (Exchange x : created) {
      exchanges.putIfAbsent(x.name(), x); // the first declaration's type wins
      Set<String> at = declaredAt.computeIfAbsent(x.name(), k -> new TreeSet<>());
      changed |= at.isEmpty();
      at.add(name);
    }
    for (String x : deleted) {
      changed |= undeclare(name, x);
    }
    if (!changed) {
      return new Change(version, Set.of(), List.of());
    }
    version++;
    return new Change(version, mirrorOthers(name), List.of());
  }

  private boolean undeclare(String edge, String exchange) {
    Set<String> at = declaredAt.get(exchange);
    if (at == null || !at.remove(edge) || !at.isEmpty()) {
      return false;
    }
    declaredAt.remove(exchange);
    exchanges.remove(exchange);
    return true;
  }

  private Set<String> mirrorOthers(String except) {
    Set<String> mustAck = new LinkedHashSet<>();
    for (Map.Entry<String, Session> en : sessions.entrySet()) {
      if (!en.getKey().equals(except)) {
        en.getValue().pendingExchanges = true;
        en.getValue().pendingVersion = version;
        mustAck.add(en.getKey());
      }
    }
    return mustAck;
  }

  public Map<String, Edge> edges() {
    return Collections.unmodifiableMap(edges);
  }

  public Optional<Edge> edge(String name) {
    return Optional.ofNullable(edges.get(name));
  }

  public Set<String> filters(String edge) {
    return Set.copyOf(filters.getOrDefault(edge, Set.of()));
  }

  /**
   * Registers {@code e} (again, after an agent restart: its filters stay and a fresh session
   * starts). Other agents drop every route if the edge is new or moved.
   */
  public Change register(Edge e) {
    Edge before = edges.put(e.name(), e);
    filters.computeIfAbsent(e.name(), k -> new TreeSet<>());
    Session fresh = new Session();
    version++;
    fresh.acked = version;
    sessions.put(e.name(), fresh);
    Set<String> mustAck = e.equals(before) ? Set.of() : flushOthers(e.name());
    return new Change(version, mustAck, List.of());
  }

  /** Removes edge {@code name} and its filters; other agents drop every route. */
  public Change leave(String name) {
    if (edges.remove(name) == null) {
      throw new NoSuchElementException("no edge named '" + name + "'");
    }
    List<String> gone = List.copyOf(filters.remove(name));
    sessions.remove(name);
    boolean mirrors = false;
    for (String x : List.copyOf(declaredAt.keySet())) {
      mirrors |= undeclare(name, x);
    }
    version++;
    Set<String> mustAck = flushOthers(name);
    if (mirrors) {
      mirrorOthers(name);
    }
    return new Change(version, mustAck, gone);
  }

  /**
   * Filters {@code added} became present at edge {@code name}, {@code removed} absent. Agents that
   * hold a route for a topic one of the changed filters matches must drop it.
   */
  public Change updateFilters(String name, Collection<String> added, Collection<String> removed) {
    Set<String> mine = filters.get(name);
    if (mine == null) {
      throw new NoSuchElementException("no edge named '" + name + "'");
    }
    added.forEach(TopicFilters::checkFilter);
    removed.forEach(TopicFilters::checkFilter);
    List<String> changed = new ArrayList<>();
    for (String f : added) {
      if (mine.add(f)) {
        changed.add(f);
      }
    }
    for (String f : removed) {
      if (mine.remove(f)) {
        changed.add(f);
      }
    }
    if (changed.isEmpty()) {
      return new Change(version, Set.of(), List.of());
    }
    version++;
    Set<String> mustAck = new HashSet<>();
    for (Map.Entry<String, Session> en : sessions.entrySet()) {
      if (en.getKey().equals(name)) {
        continue; // an edge's own filters never change its own routes
      }
      Session s = en.getValue();
      if (s.pendingFlush) {
        mustAck.add(en.getKey());
        continue;
      }
      for (String t : List.copyOf(s.heldTopics)) {
        if (changed.stream().anyMatch(f -> TopicFilters.matches(f, t))) {
          s.heldTopics.remove(t);
          s.pendingTopics.add(t);
          s.pendingVersion = version;
          mustAck.add(en.getKey());
        }
      }
    }
    return new Change(version, mustAck, List.copyOf(changed));
  }

  /** The edges with a filter matching {@code topic}. */
  public List<Edge> members(String topic) {
    List<Edge> out = new ArrayList<>();
    for (Edge e : edges.values()) {
      if (filters.get(e.name()).stream().anyMatch(f -> TopicFilters.matches(f, topic))) {
        out.add(e);
      }
    }
    return out;
  }

  /** Where a message on {@code topic} published at {@code origin} goes; remembered as held. */
  public RouteAnswer route(String topic, String origin, boolean retain) {
    TopicFilters.checkTopic(topic);
    Session s = sessions.get(origin);
    if (s == null) {
      throw new NoSuchElementException("no edge named '" + origin + "'");
    }
    List<Edge> targets = new ArrayList<>();
    if (retain) {
      edges.values().stream().filter(e -> !e.name().equals(origin)).forEach(targets::add);
    } else {
      members(topic).stream().filter(e -> !e.name().equals(origin)).forEach(targets::add);
      s.heldTopics.add(topic);
    }
    return new RouteAnswer(version, targets);
  }

  /**
   * A long-poll from {@code edge} that has applied every change up to {@code after}: acknowledges
   * them, and returns what it must still drop, if anything.
   */
  public Optional<Changes> poll(String edge, long after) {
    Session s = sessions.get(edge);
    if (s == null) {
      throw new NoSuchElementException("no edge named '" + edge + "'");
    }
    s.acked = Math.max(s.acked, after);
    if (s.pending() && after >= s.pendingVersion) {
      s.pendingFlush = false;
      s.pendingExchanges = false;
      s.pendingTopics.clear();
    }
    if (!s.pending()) {
      return Optional.empty();
    }
    return Optional.of(
        new Changes(version, s.pendingFlush, Set.copyOf(s.pendingTopics), s.pendingExchanges));
  }

  /** The newest version {@code edge} has acknowledged (-1 for an unknown edge). */
  public long acked(String edge) {
    Session s = sessions.get(edge);
    return s == null ? -1 : s.acked;
  }

  /** Whether {@code edge} has acknowledged {@code version} (or is gone). */
  public boolean acknowledged(String edge, long atVersion) {
    Session s = sessions.get(edge);
    return s == null || s.acked >= atVersion;
  }

  private Set<String> flushOthers(String except) {
    Set<String> mustAck = new LinkedHashSet<>();
    for (Map.Entry<String, Session> en : sessions.entrySet()) {
      if (en.getKey().equals(except)) {
        continue;
      }
      Session s = en.getValue();
      s.heldTopics.clear();
      s.pendingFlush = true;
      s.pendingVersion = version;
      // retained routes are not tracked per topic: every agent may hold one
      mustAck.add(en.getKey());
    }
    return mustAck;
  }
}
