package org.netpubsub.edge.broker;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.netpubsub.edge.mqtt.TopicFilters;

/**
 * The topic filters the clients of the local broker hold, per client, from {@link BrokerEvent}s;
 * {@link #apply} returns the per-filter changes (present at this broker or not) to report. Pure,
 * not thread-safe.
 *
 * <p>A disconnect ends the subscriptions of a client that connected with clean start; one that did
 * not may have a persistent session, so its filters stay (over-delivery to the broker is harmless,
 * a missing filter would lose messages). Ignored: the agent's own client, {@code $SYS} filters
 * (broker-local), invalid filters. Shared subscriptions ({@code $share/G/F}) count as {@code F}.
 */
public final class LocalSubscriptions implements LocalFilters {
  /** The holder of filters carried over from before an agent restart (never disconnects). */
  static final String CARRIED_OVER = "";

  private final Set<String> ignoredClients;
  private final String ignoredPrefix; // the agent's short-lived helper connections; null: none
  private final Map<String, Set<String>> byClient = new HashMap<>();
  private final Map<String, Set<String>> holders = new HashMap<>();
  private final Set<String> cleanClients = new HashSet<>();

  public LocalSubscriptions(Collection<String> ignoredClients) {
    this(ignoredClients, null);
  }

  /** Also ignores every client whose id starts with {@code ignoredPrefix}. */
  public LocalSubscriptions(Collection<String> ignoredClients, String ignoredPrefix) {
    this.ignoredClients = Set.copyOf(ignoredClients);
    this.ignoredPrefix = ignoredPrefix;
  }

  /**
   * Filters the coordinator still has for this edge from before a restart: the log does not repeat
   * old subscriptions, so they are kept until the agent is told otherwise (never, here).
   */
  @Override
  public List<FilterChange> carryOver(Collection<String> filters) {
    List<FilterChange> out = new ArrayList<>();
    for (String f : filters) {
      add(CARRIED_OVER, f, out);
    }
    return out;
  }

  public List<FilterChange> apply(BrokerEvent e) {
    List<FilterChange> out = new ArrayList<>();
    if (ignoredClients.contains(e.client())
        || e.client().equals(CARRIED_OVER)
        || (ignoredPrefix != null && e.client().startsWith(ignoredPrefix))) {
      return out;
    }
    switch (e) {
      case BrokerEvent.Connected c -> {
        if (c.cleanStart()) {
          dropAll(c.client(), out);
          cleanClients.add(c.client());
        } else {
          cleanClients.remove(c.client());
        }
      }
      case BrokerEvent.Disconnected d -> {
        if (cleanClients.remove(d.client())) {
          dropAll(d.client(), out);
        }
      }
      case BrokerEvent.Subscribed s -> {
        String f = effective(s.filter());
        if (f != null) {
          add(s.client(), f, out);
        }
      }
      case BrokerEvent.Unsubscribed u -> {
        String f = effective(u.filter());
        if (f != null) {
          remove(u.client(), f, out);
        }
      }
    }
    return out;
  }

  /** The filters present at this broker. */
  @Override
  public Set<String> filters() {
    return Set.copyOf(holders.keySet());
  }

  private static String effective(String filter) {
    String f = filter;
    if (f.startsWith("$share/")) {
      int slash = f.indexOf('/', "$share/".length());
      if (slash < 0) {
        return null;
      }
      f = f.substring(slash + 1);
    }
    if (f.startsWith("$SYS")) {
      return null;
    }
    try {
      return TopicFilters.checkFilter(f);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private void add(String client, String filter, List<FilterChange> out) {
    if (byClient.computeIfAbsent(client, k -> new LinkedHashSet<>()).add(filter)) {
      Set<String> h = holders.computeIfAbsent(filter, k -> new HashSet<>());
      if (h.isEmpty()) {
        out.add(new FilterChange(filter, true));
      }
      h.add(client);
    }
  }

  private void remove(String client, String filter, List<FilterChange> out) {
    Set<String> mine = byClient.get(client);
    if (mine == null || !mine.remove(filter)) {
      return;
    }
    if (mine.isEmpty()) {
      byClient.remove(client);
    }
    Set<String> h = holders.get(filter);
    h.remove(client);
    if (h.isEmpty()) {
      holders.remove(filter);
      out.add(new FilterChange(filter, false));
    }
  }

  private void dropAll(String client, List<FilterChange> out) {
    Set<String> mine = byClient.get(client);
    if (mine != null) {
      for (String f : List.copyOf(mine)) {
        remove(client, f, out);
      }
    }
  }
}
