package org.netpubsub.controller.nbi;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiPredicate;

/**
 * Which data connections each remote app's messages go to (issue 27: a client receives only the
 * packet-ins of the apps its CURVE identity may act as). A connection joins an app by saying {@code
 * HELLO app} on the bus's ROUTER socket; the gateway checks the connection's user id first, and
 * {@link #hello} records the pair. Keyed by ZeroMQ routing ids, which remote peers cause, so the
 * table is bounded ({@link #maxConnections}, {@link #appsPerConnection}) and expires: a connection
 * that has not said hello for the silence is forgotten (clients repeat it with their keepalive).
 *
 * <p>Pure and thread-safe (one monitor): the publisher thread reads {@link #connections} per
 * message and writes hellos, expiries and unreachable peers; a clients reload calls {@link
 * #revoke}. Reads return an array built at the last change, so a packet-in costs one map lookup.
 */
final class RemoteAppRoutes {
  private static final byte[][] NONE = new byte[0][];

  private static final class Connection {
    final byte[] id;
    final String user; // null: no CURVE
    final Set<String> apps = new LinkedHashSet<>();
    long lastHelloMillis;

    Connection(byte[] id, String user, long now) {
      this.id = id;
      this.user = user;
      this.lastHelloMillis = now;
    }
  }

  private final int maxConnections;
  private final int appsPerConnection;
  private final long silenceMillis;
  // routing id (bytes as ISO-8859-1, one char a byte) -> connection; guarded by this
  private final Map<String, Connection> byId = new HashMap<>();
  // app -> routing ids of its connections, rebuilt for the apps a change touches; guarded by this
  private final Map<String, byte[][]> byApp = new HashMap<>();

  RemoteAppRoutes(int maxConnections, int appsPerConnection, long silenceMillis) {
    if (maxConnections < 1 || appsPerConnection < 1 || silenceMillis < 1) {
      throw new IllegalArgumentException("remote-app route limits must be positive");
    }
    this.maxConnections = maxConnections;
    this.appsPerConnection = appsPerConnection;
    this.silenceMillis = silenceMillis;
  }

  /** The bounds the bus uses: four connections per registrable app, as many apps as a client. */
  static RemoteAppRoutes of(RemoteAppLeases.Limits limits) {
    return new RemoteAppRoutes(
        4 * limits.apps(), limits.appsPerClient(), limits.silence().toMillis());
  }

  /**
   * Connection {@code id}, authenticated as {@code user} (null without CURVE), joins {@code app},
   * or renews it: empty, or why not (a cap, with its number). The caller has checked that {@code
   * user} may act as {@code app}. A routing id that now carries another user's messages starts
   * afresh: a connection never keeps what its id's earlier holder joined.
   */
  synchronized Optional<String> hello(byte[] id, String user, String app, long now) {
    String key = key(id);
    Connection c = byId.get(key);
    if (c != null && !java.util.Objects.equals(c.user, user)) {
      drop(key);
      c = null;
    }
    if (c == null) {
      if (byId.size() >= maxConnections) {
        return Optional.of(
            "the bus has " + maxConnections + " data connections already (the limit)");
      }
      c = new Connection(id.clone(), user, now);
      byId.put(key, c);
    }
    c.lastHelloMillis = now;
    if (c.apps.contains(app)) {
      return Optional.empty();
    }
    if (c.apps.size() >= appsPerConnection) {
      return Optional.of(
          "a data connection joins at most " + appsPerConnection + " apps (the limit)");
    }
    c.apps.add(app);
    rebuild(app);
    return Optional.empty();
  }

  /** The routing ids of {@code app}'s connections; never null, never to be changed. */
  synchronized byte[][] connections(String app) {
    return byApp.getOrDefault(app, NONE);
  }

  /** Forgets a connection ZeroMQ no longer routes to (it went away). */
  synchronized void gone(byte[] id) {
    drop(key(id));
  }

  /** Forgets the connections that have not said hello for the silence; returns how many. */
  synchronized int expire(long now) {
    List<String> old = new ArrayList<>();
    byId.forEach(
        (k, c) -> {
          if (now - c.lastHelloMillis > silenceMillis) {
            old.add(k);
          }
        });
    old.forEach(this::drop);
    return old.size();
  }

  /**
   * Takes from each connection the apps its user may no longer act as ({@code mayActAs(user, app)}
   * false; a clients reload): those stop at once, on connections made before the reload too.
   */
  synchronized void revoke(BiPredicate<String, String> mayActAs) {
    Set<String> touched = new LinkedHashSet<>();
    for (Iterator<Connection> it = byId.values().iterator(); it.hasNext(); ) {
      Connection c = it.next();
      if (c.user == null) {
        continue; // no CURVE: nothing to revoke
      }
      for (Iterator<String> a = c.apps.iterator(); a.hasNext(); ) {
        String app = a.next();
        if (!mayActAs.test(c.user, app)) {
          a.remove();
          touched.add(app);
        }
      }
      if (c.apps.isEmpty()) {
        it.remove();
      }
    }
    touched.forEach(this::rebuild);
  }

  synchronized int size() {
    return byId.size();
  }

  private void drop(String key) {
    Connection c = byId.remove(key);
    if (c != null) {
      c.apps.forEach(this::rebuild);
    }
  }

  private void rebuild(String app) {
    List<byte[]> ids = new ArrayList<>();
    byId.values()
        .forEach(
            c -> {
              if (c.apps.contains(app)) ids.add(c.id);
            });
    if (ids.isEmpty()) {
      byApp.remove(app);
    } else {
      byApp.put(app, ids.toArray(NONE));
    }
  }

  private static String key(byte[] id) {
    return new String(id, StandardCharsets.ISO_8859_1);
  }
}
