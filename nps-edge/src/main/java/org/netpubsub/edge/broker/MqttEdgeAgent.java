package org.netpubsub.edge.broker;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.paho.mqttv5.common.MqttException;
import org.eclipse.paho.mqttv5.common.MqttMessage;

/**
 * {@link EdgeAgent} on one {@link LocalBroker} connection. Threads: Paho's callback thread runs
 * Agent-Sub (route lookup, send); one platform thread runs Agent-Pub (receive, decode, publish);
 * one reports filter changes in order; one long-polls the coordinator's changes. The route cache is
 * the only state they share (guarded by itself).
 */
final class MqttEdgeAgent implements EdgeAgent, LocalBroker.Listener {
  private static final Logger LOG = Logger.getLogger(MqttEdgeAgent.class.getName());
  private static final Duration RETRY = Duration.ofMillis(200);

  private final String edge;
  private final String clientId;
  private final CoordinatorClient coordinator;
  private final DatagramSocket socket;
  private final LocalBroker mqtt;
  private final RouteCache routes;
  private final AgentCounters counters = new AgentCounters();
  private final Map<String, Long> sequences = new HashMap<>(); // Paho's callback thread only
  private final FilterReporter reporter;
  private final Thread receiver;
  private final Thread changes;
  private final Duration changeWait;
  private volatile String mode;
  private volatile boolean closed;
  private volatile boolean left; // after leave(), a 404 means "gone", not "register again"

  private MqttEdgeAgent(EdgeAgent.Builder b, DatagramSocket socket) throws MqttException {
    this.edge = b.edge;
    this.clientId = "nps-edge-agent-" + b.edge;
    this.coordinator = new CoordinatorClient(b.coordinator, b.coordinatorTimeout);
    this.socket = socket;
    this.routes = new RouteCache(b.routeCacheSize);
    this.changeWait = b.changeWait;
    this.reporter = new FilterReporter(edge, clientId, coordinator, counters, this::reRegister);
    this.mqtt = new LocalBroker(b.broker, clientId, this);
    this.receiver =
        Thread.ofPlatform().daemon().name("nps-agent-pub-" + edge).unstarted(this::receive);
    this.changes =
        Thread.ofPlatform().daemon().name("nps-agent-changes-" + edge).unstarted(this::pollChanges);
  }

  static EdgeAgent start(EdgeAgent.Builder b) throws IOException {
    DatagramSocket socket = new DatagramSocket(null);
    MqttEdgeAgent a = null;
    try {
      socket.setReceiveBufferSize(4 << 20);
      socket.bind(b.listen);
      a = new MqttEdgeAgent(b, socket);
      a.register();
      a.connect();
      a.receiver.start();
      a.changes.start();
      return a;
    } catch (MqttException e) {
      closeQuietly(a, socket);
      throw new IOException("cannot connect to the broker " + b.broker + ": " + e.getMessage(), e);
    } catch (CoordinatorClient.CoordinatorException e) {
      closeQuietly(a, socket);
      throw new IOException(e.getMessage(), e);
    } catch (IOException | RuntimeException e) {
      closeQuietly(a, socket);
      throw e;
    }
  }

  private static void closeQuietly(MqttEdgeAgent a, DatagramSocket socket) {
    if (a != null) {
      a.close();
    } else {
      socket.close();
    }
  }

  private void register() throws CoordinatorClient.CoordinatorException {
    InetSocketAddress at = (InetSocketAddress) socket.getLocalSocketAddress();
    CoordinatorClient.Registration r = coordinator.register(edge, at);
    mode = r.mode();
    synchronized (routes) {
      routes.invalidate(r.version(), true, List.of());
    }
    reporter.registered(r.filters());
  }

  private void connect() throws MqttException {
    mqtt.connect();
  }

  // ---- Agent-Sub (Paho's callback thread) ----

  @Override
  public void onMessage(String topic, MqttMessage message) {
    forward(topic, message);
  }

  @Override
  public void onLogEvent(BrokerEvent event) {
    reporter.onEvent(event);
  }

  @Override
  public void failed(String topic, RuntimeException e) {
    counters.drop("agent_error");
    LOG.log(Level.WARNING, "forwarding '" + topic + "'", e);
  }

  private void forward(String topic, MqttMessage message) {
    boolean retain = message.isRetained();
    Optional<Route> route = route(topic, retain);
    if (route.isEmpty()) {
      counters.drop("no_route");
      return;
    }
    if (route.get().targets().isEmpty()) {
      return; // nobody elsewhere subscribes
    }
    long seq = sequences.merge(topic, 1L, Long::sum);
    byte[] bytes;
    try {
      bytes =
          DatagramCodec.encode(
              new EdgeMessage(edge, seq, topic, message.getPayload(), message.getQos(), retain));
    } catch (DatagramException e) {
      counters.drop(e.reason());
      LOG.warning("not forwarded: " + e.getMessage());
      return;
    }
    for (InetSocketAddress to : route.get().targets()) {
      try {
        socket.send(new DatagramPacket(bytes, bytes.length, to));
        counters.forwarded.increment();
      } catch (IOException e) {
        counters.drop("send_failed");
        LOG.fine("send to " + to + ": " + e);
      }
    }
  }

  private Optional<Route> route(String topic, boolean retain) {
    RouteCache.Key key = new RouteCache.Key(topic, retain);
    synchronized (routes) {
      Optional<Route> hit = routes.get(key);
      if (hit.isPresent()) {
        counters.cacheHits.increment();
        return hit;
      }
    }
    try {
      Route r;
      try {
        r = coordinator.route(topic, edge, retain);
      } catch (CoordinatorClient.CoordinatorException e) {
        if (e.status != 0) {
          throw e;
        }
        r = coordinator.route(topic, edge, retain); // once more: a restarted coordinator
      }
      synchronized (routes) {
        routes.put(key, r);
      }
      return Optional.of(r);
    } catch (CoordinatorClient.CoordinatorException e) {
      LOG.warning("no route for '" + topic + "': " + e.getMessage());
      return Optional.empty();
    } finally {
      counters.routeLookups.increment(); // counted when answered: tests wait on it
    }
  }

  // ---- Agent-Pub (receiver thread) ----

  private void receive() {
    Datagrams.receiveUntil(socket, () -> closed, LOG, this::onDatagram);
  }

  /** One datagram from another edge: decoded and published locally. */
  private void onDatagram(DatagramPacket p) {
    counters.received.increment();
    EdgeMessage m;
    try {
      m = DatagramCodec.decode(p.getData(), p.getOffset(), p.getLength());
    } catch (DatagramException e) {
      counters.drop(e.reason());
      return;
    } catch (RuntimeException e) {
      counters.drop("malformed"); // never expected: the codec throws only DatagramException
      return;
    }
    if (m.origin().equals(edge)) {
      counters.drop("own_origin"); // a network group may include its own source
      return;
    }
    publish(m);
  }

  private void publish(EdgeMessage m) {
    try {
      mqtt.publish(m);
      counters.published.increment();
    } catch (MqttException | RuntimeException e) {
      counters.drop("publish_failed");
      LOG.fine("publish '" + m.topic() + "': " + e);
    }
  }

  // ---- coordinator changes (changes thread) ----

  private void pollChanges() {
    long after;
    synchronized (routes) {
      after = routes.seenVersion();
    }
    while (!closed) {
      try {
        CoordinatorClient.Changes c = coordinator.changes(edge, after, changeWait);
        synchronized (routes) {
          routes.invalidate(c.version(), c.flush(), c.topics());
        }
        after = Math.max(after, c.version());
      } catch (CoordinatorClient.CoordinatorException e) {
        if (closed) {
          return;
        }
        if (e.status == 404) {
          reRegister();
          synchronized (routes) {
            after = routes.seenVersion();
          }
        } else {
          LOG.fine("change poll: " + e.getMessage());
          pause();
        }
      }
    }
  }

  private void reRegister() {
    if (left || closed) {
      return;
    }
    try {
      register();
      LOG.info("edge " + edge + " registered again at the coordinator");
    } catch (CoordinatorClient.CoordinatorException e) {
      LOG.warning("registering again: " + e.getMessage());
      pause();
    }
  }

  private void pause() {
    try {
      Thread.sleep(RETRY); // back-off before asking an unavailable coordinator again
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  // ---- EdgeAgent ----

  @Override
  public String edge() {
    return edge;
  }

  @Override
  public InetSocketAddress datagramAddress() {
    return (InetSocketAddress) socket.getLocalSocketAddress();
  }

  @Override
  public String mode() {
    return mode;
  }

  @Override
  public AgentStats stats() {
    return counters.snapshot();
  }

  @Override
  public Set<String> acknowledgedFilters() {
    return reporter.acknowledged();
  }

  @Override
  public boolean reportsPending() {
    return reporter.pending();
  }

  @Override
  public void leave() throws IOException {
    left = true;
    try {
      coordinator.leave(edge);
    } catch (CoordinatorClient.CoordinatorException e) {
      throw new IOException(e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    mqtt.close();
    socket.close();
    changes.interrupt();
    reporter.close();
    try {
      receiver.join(2000);
      changes.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
