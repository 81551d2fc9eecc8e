package org.netpubsub.edge.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

class RouteCacheTest {
  private static final RouteCache.Key A = new RouteCache.Key("a", false);
  private static final Route R = new Route(List.of(new InetSocketAddress("127.0.0.1", 9)), 5);

  @Test
  void invalidationDropsTheTopicsRoutes() {
    RouteCache c = new RouteCache(10);
    assertThat(c.put(A, R)).isTrue();
    c.put(new RouteCache.Key("a", true), R);
    c.invalidate(6, false, List.of("a"));
    assertThat(c.size()).isZero();
  }

  @Test
  void aRouteOlderThanASeenChangeIsNotCached() {
    RouteCache c = new RouteCache(10);
    c.invalidate(6, false, List.of("other"));
    assertThat(c.put(A, R)).isFalse();
    assertThat(c.get(A)).isEmpty();
  }

  @Test
  void boundedLeastRecentlyUsed() {
    RouteCache c = new RouteCache(2);
    c.put(A, R);
    c.put(new RouteCache.Key("b", false), R);
    c.get(A);
    c.put(new RouteCache.Key("c", false), R);
    assertThat(c.get(A)).isPresent();
    assertThat(c.get(new RouteCache.Key("b", false))).isEmpty();
  }
}
