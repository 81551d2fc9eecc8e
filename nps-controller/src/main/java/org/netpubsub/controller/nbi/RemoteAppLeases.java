package org.netpubsub.controller.nbi;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiPredicate;

/**
 * The remote apps' registrations as leases (issue 27: every map keyed by what a remote sends is
 * bounded and expires): at most {@link Limits#apps} apps, {@link Limits#appsPerClient} per CURVE
 * client and {@link Limits#topicsPerApp} topics an app; a lease not renewed for {@link
 * Limits#silence} (no request, answer or {@code ALIVE} naming the app) expires. Without CURVE there
 * is no client to tell apart (a null client): only the overall caps hold. Pure and thread-safe; the
 * caller unregisters from the bus what {@link #expire} and {@link #revoke} return.
 */
final class RemoteAppLeases {
  /** The caps and the silence after which a registration expires. */
  record Limits(int appsPerClient, int apps, int topicsPerApp, Duration silence) {
    /** Generous for a controller's apps; a client says {@code ALIVE} every 10 s. */
    static final Limits DEFAULT = new Limits(64, 1024, 256, Duration.ofSeconds(60));

    Limits {
      if (appsPerClient < 1 || apps < 1 || topicsPerApp < 1 || silence.toMillis() < 1) {
        throw new IllegalArgumentException("remote-app limits must be positive");
      }
    }
  }

  private static final class Lease {
    final String client; // null: no CURVE
    long lastSeenMillis;
    int topics;

    Lease(String client, long now) {
      this.client = client;
      this.lastSeenMillis = now;
    }
  }

  private final Limits limits;
  private final Map<String, Lease> byApp = new LinkedHashMap<>(); // guarded by this
  private final Map<String, Integer> perClient = new HashMap<>(); // guarded by this

  RemoteAppLeases(Limits limits) {
    this.limits = limits;
  }

  Limits limits() {
    return limits;
  }

  /**
   * Registers {@code app} for {@code client} (or renews it if it is registered): empty, or why not
   * (a cap, with its number).
   */
  synchronized Optional<String> admit(String client, String app, long nowMillis) {
    Lease l = byApp.get(app);
    if (l != null) {
      l.lastSeenMillis = nowMillis;
      return Optional.empty();
    }
    if (byApp.size() >= limits.apps()) {
      return Optional.of(
          "the bus has " + limits.apps() + " remote apps registered already (the limit)");
    }
    if (client != null && perClient.getOrDefault(client, 0) >= limits.appsPerClient()) {
      return Optional.of(
          "client '"
              + client
              + "' has "
              + limits.appsPerClient()
              + " apps registered already (the limit)");
    }
    byApp.put(app, new Lease(client, nowMillis));
    if (client != null) {
      perClient.merge(client, 1, Integer::sum);
    }
    return Optional.empty();
  }

  /** Renews {@code app}'s lease; false if it holds none (never registered, gone or expired). */
  synchronized boolean touch(String app, long nowMillis) {
    Lease l = byApp.get(app);
    if (l == null) {
      return false;
    }
    l.lastSeenMillis = nowMillis;
    return true;
  }

  /** Takes one more topic for a registered app: empty, or why not. */
  synchronized Optional<String> addTopic(String app) {
    Lease l = byApp.get(app);
    if (l == null) {
      return Optional.of("app '" + app + "' is not registered");
    }
    if (l.topics >= limits.topicsPerApp()) {
      return Optional.of(
          "app '" + app + "' has " + limits.topicsPerApp() + " topics already (the limit)");
    }
    l.topics++;
    return Optional.empty();
  }

  /** Gives back a topic taken by {@link #addTopic} (unsubscribed, or it was there already). */
  synchronized void removeTopic(String app) {
    Lease l = byApp.get(app);
    if (l != null && l.topics > 0) {
      l.topics--;
    }
  }

  /** Forgets {@code app} (it said BYE). */
  synchronized void release(String app) {
    Lease l = byApp.remove(app);
    if (l != null && l.client != null) {
      perClient.computeIfPresent(l.client, (c, n) -> n > 1 ? n - 1 : null);
    }
  }

  /** Forgets and returns the apps silent for longer than {@link Limits#silence}. */
  synchronized List<String> expire(long nowMillis) {
    return removeIf((app, l) -> nowMillis - l.lastSeenMillis > limits.silence().toMillis());
  }

  /**
   * Forgets and returns the apps whose client may no longer act as them ({@code mayActAs(client,
   * app)} false): after a clients file reload that removed a client or narrowed its apps.
   */
  synchronized List<String> revoke(BiPredicate<String, String> mayActAs) {
    return removeIf((app, l) -> l.client != null && !mayActAs.test(l.client, app));
  }

  synchronized int size() {
    return byApp.size();
  }

  private List<String> removeIf(BiPredicate<String, Lease> gone) {
    List<String> out = new ArrayList<>();
    for (Iterator<Map.Entry<String, Lease>> it = byApp.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, Lease> e = it.next();
      if (gone.test(e.getKey(), e.getValue())) {
        it.remove();
        String c = e.getValue().client;
        if (c != null) {
          perClient.computeIfPresent(c, (k, n) -> n > 1 ? n - 1 : null);
        }
        out.add(e.getKey());
      }
    }
    return out;
  }
}
