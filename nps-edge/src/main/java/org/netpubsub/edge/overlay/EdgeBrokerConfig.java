package org.netpubsub.edge.overlay;

import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.netpubsub.edge.link.DatagramAuth;
import org.netpubsub.edge.link.WanEmulation;
import org.netpubsub.edge.mqtt.TopicFilters;

/**
 * How an overlay edge broker runs (defaults in {@link #of}): its name and site, the local MQTT
 * broker, where it receives datagrams, topics declared with a deadline (filter → milliseconds:
 * those also take the direct edge-to-edge path, §2.4.2) and how many topics may do so (admission
 * control; at a receiving edge, a topic silent longer than its deadline is a missed deadline), how
 * long a topic without local publishes keeps its publisher entry, and how many reliable messages
 * per topic stay buffered for retransmission, how many of those a late-joining subscriber edge is
 * sent (durability; 0: none); for experiments only, the emulated WAN its datagrams cross (null: the
 * production path); and how its datagrams are authenticated (required before it starts: a shared
 * key, or insecure where a test or an experiment asks for it), and whether that key is the edge's
 * own only ({@code ownKey}, null: the deployment's keys; docs/security.md, "Per-edge keys").
 */
public record EdgeBrokerConfig(
    String name,
    String site,
    URI local,
    InetSocketAddress listen,
    Map<String, Long> deadlines,
    int maxDirectTopics,
    Duration publisherIdle,
    int buffer,
    int durable,
    WanEmulation emulation,
    DatagramAuth auth,
    OwnKeyOnly ownKey) {
  /**
   * The largest send buffer: a receiver treats a jump of more than this many numbers as a restarted
   * origin, so a larger buffer could not be asked for.
   */
  public static final int MAX_BUFFER = 4096;

  public EdgeBrokerConfig {
    ZnodePaths.checkName(name);
    ZnodePaths.checkName(site);
    Objects.requireNonNull(local, "local");
    if ("dds".equals(local.getScheme())) {
      org.netpubsub.edge.dds.DdsDomain.parse(local); // refuses a malformed dds: URI
    } else if (!"mqtt".equals(local.getScheme())
        || local.getHost() == null
        || local.getPort() < 0) {
      throw new IllegalArgumentException(
          "--local must be mqtt://HOST:PORT or dds:DOMAIN[?interface=IF][&user_data=TEXT], not "
              + local);
    }
    Objects.requireNonNull(listen, "listen");
    deadlines = Map.copyOf(deadlines);
    deadlines.forEach(
        (f, ms) -> {
          TopicFilters.checkFilter(f);
          if (ms <= 0) {
            throw new IllegalArgumentException("deadline of '" + f + "' must be > 0 ms");
          }
        });
    if (durable < 0 || durable > buffer) {
      throw new IllegalArgumentException("durable messages must be between 0 and " + buffer);
    }
    if (buffer > MAX_BUFFER) {
      throw new IllegalArgumentException(
          "buffer must be at most " + MAX_BUFFER + ", not " + buffer);
    }
    if (maxDirectTopics < 0
        || buffer <= 0
        || publisherIdle.isNegative()
        || publisherIdle.isZero()) {
      throw new IllegalArgumentException("max direct topics >= 0, buffer > 0, idle time > 0");
    }
  }

  /** Defaults: no deadlines, 16 direct topics, publishers idle after 10 min, 1024 buffered. */
  public static EdgeBrokerConfig of(String name, String site, URI local, InetSocketAddress listen) {
    return new EdgeBrokerConfig(
        name, site, local, listen, Map.of(), 16, Duration.ofMinutes(10), 1024, 0, null, null, null);
  }

  public EdgeBrokerConfig withDeadlines(Map<String, Long> d, int maxDirect) {
    return new EdgeBrokerConfig(
        name,
        site,
        local,
        listen,
        d,
        maxDirect,
        publisherIdle,
        buffer,
        durable,
        emulation,
        auth,
        ownKey);
  }

  /** How datagrams are authenticated: a shared key, or {@link DatagramAuth#insecure()}. */
  public EdgeBrokerConfig withAuth(DatagramAuth a) {
    return new EdgeBrokerConfig(
        name,
        site,
        local,
        listen,
        deadlines,
        maxDirectTopics,
        publisherIdle,
        buffer,
        durable,
        emulation,
        a,
        ownKey);
  }

  /** Experiments only: send over an emulated WAN. */
  public EdgeBrokerConfig withEmulation(WanEmulation e) {
    return new EdgeBrokerConfig(
        name,
        site,
        local,
        listen,
        deadlines,
        maxDirectTopics,
        publisherIdle,
        buffer,
        durable,
        e,
        auth,
        ownKey);
  }

  /** Durability: replay the last {@code n} reliable messages of a topic to each late joiner. */
  public EdgeBrokerConfig withDurable(int n) {
    return new EdgeBrokerConfig(
        name,
        site,
        local,
        listen,
        deadlines,
        maxDirectTopics,
        publisherIdle,
        buffer,
        n,
        emulation,
        auth,
        ownKey);
  }

  /**
   * Reliable messages kept per topic for NACK repair: at N messages/s a stream survives a relay's
   * failover of up to buffer / N seconds.
   */
  public EdgeBrokerConfig withBuffer(int n) {
    return new EdgeBrokerConfig(
        name,
        site,
        local,
        listen,
        deadlines,
        maxDirectTopics,
        publisherIdle,
        n,
        durable,
        emulation,
        auth,
        ownKey);
  }

  /**
   * The edge holds its own key only ({@link #auth} is that key, derived with {@code nps overlay
   * keys edge}), with the keys it shares with other such edges; null: it holds the deployment's.
   */
  public EdgeBrokerConfig withOwnKey(OwnKeyOnly k) {
    return new EdgeBrokerConfig(
        name,
        site,
        local,
        listen,
        deadlines,
        maxDirectTopics,
        publisherIdle,
        buffer,
        durable,
        emulation,
        auth,
        k);
  }
}
