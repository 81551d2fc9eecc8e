package org.netpubsub.edge.broker;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The agent's routes by (topic, retained), bounded (least recently used out). The coordinator's
 * changes invalidate entries; a route computed before the newest change the agent has seen is used
 * once but never cached, since that change may have come in while the route was on its way. Pure,
 * not thread-safe.
 */
public final class RouteCache {
  /** A cache key: retained messages go to every edge, so their routes differ. */
  public record Key(String topic, boolean retain) {}

  private final int capacity;
  private final LinkedHashMap<Key, Route> routes;
  private long seenVersion;

  public RouteCache(int capacity) {
    this.capacity = capacity;
    this.routes =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<Key, Route> eldest) {
            return size() > RouteCache.this.capacity;
          }
        };
  }

  public Optional<Route> get(Key key) {
    return Optional.ofNullable(routes.get(key));
  }

  /** Caches {@code route} unless a newer change has been seen; returns whether it did. */
  public boolean put(Key key, Route route) {
    if (route.version() < seenVersion) {
      return false;
    }
    routes.put(key, route);
    return true;
  }

  /** A change up to {@code version}: every route ({@code flush}) or those of {@code topics}. */
  public void invalidate(long version, boolean flush, Collection<String> topics) {
    seenVersion = Math.max(seenVersion, version);
    if (flush) {
      routes.clear();
      return;
    }
    for (String t : topics) {
      routes.remove(new Key(t, false));
      routes.remove(new Key(t, true));
    }
  }

  public int size() {
    return routes.size();
  }

  public long seenVersion() {
    return seenVersion;
  }
}
