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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.paho.mqttv5.client.IMqttToken;
import org.eclipse.paho.mqttv5.client.MqttCallback;
import org.eclipse.paho.mqttv5.client.MqttClient;
import org.eclipse.paho.mqttv5.client.MqttConnectionOptions;
import org.eclipse.paho.mqttv5.client.MqttDisconnectResponse;
import org.eclipse.paho.mqttv5.client.persist.MemoryPersistence;
import org.eclipse.paho.mqttv5.common.MqttException;
import org.eclipse.paho.mqttv5.common.MqttMessage;
import org.eclipse.paho.mqttv5.common.MqttSubscription;
import org.eclipse.paho.mqttv5.common.packet.MqttProperties;

/**
 * {@link EdgeAgent} on one MQTT 5 connection (Paho) to the local broker. Threads: Paho's callback
 * thread runs Agent-Sub (route lookup, send); one platform thread runs Agent-Pub (receive, decode,
 * publish); one reports filter changes in order; one long-polls the coordinator's changes. The
 * route cache is the only state they share (guarded by itself).
 */
final class MqttEdgeAgent implements EdgeAgent, MqttCallback {
  private static final Logger LOG = Logger.getLogger(MqttEdgeAgent.class.getName());
  private static final Duration RETRY = Duration.ofMillis(200);

  private final String edge;
  private final String clientId;
  private final CoordinatorClient coordinator;
  private final DatagramSocket socket;
  private final MqttClient mqtt;
  private final RouteCache routes;
  private final AgentCounters counters = new AgentCounters();
  private final Map<String, Long> sequences = new HashMap<>(); // Paho's callback thread only
  private final FilterReporter reporter;
  private final ExecutorService resubscriber;
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
    this.mqtt =
        new MqttClient(
            "tcp://" + b.broker.getHost() + ":" + b.broker.getPort(),
            clientId,
            new MemoryPersistence());
    this.resubscriber = Executors.newSingleThreadExecutor(daemon("nps-agent-resubscribe-" + edge));
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
    MqttConnectionOptions o = new MqttConnectionOptions();
    o.setCleanStart(true);
    o.setSessionExpiryInterval(0L);
    o.setAutomaticReconnect(true);
    o.setAutomaticReconnectDelay(1, 5);
    o.setConnectionTimeout(5);
    mqtt.setCallback(this);
    mqtt.connect(o);
    subscribe();
  }

  private void subscribe() throws MqttException {
    MqttSubscription all = new MqttSubscription("#", 2);
    all.setNoLocal(true); // never receive what Agent-Pub publishes: no loops, no duplicates
    all.setRetainAsPublished(true); // forward the retain flag as the publisher set it
    all.setRetainHandling(2); // stored retained messages were forwarded when published
    MqttSubscription log = new MqttSubscription(MosquittoLog.LOG_FILTER, 0);
    log.setRetainHandling(2);
    mqtt.subscribe(new MqttSubscription[] {log, all});
  }

  // ---- Agent-Sub (Paho's callback thread) ----

  @Override
  public void messageArrived(String topic, MqttMessage message) {
    try {
      if (topic.startsWith("$SYS/broker/log/")) {
        onLog(topic, new String(message.getPayload(), java.nio.charset.StandardCharsets.UTF_8));
      } else if (!topic.startsWith("$")) {
        forward(topic, message);
      }
    } catch (RuntimeException e) {
      // an exception here would make Paho drop the connection
      counters.drop("agent_error");
      LOG.log(Level.WARNING, "forwarding '" + topic + "'", e);
    }
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

  private void onLog(String topic, String line) {
    MosquittoLog.parse(topic, line).ifPresent(reporter::onEvent);
  }

  // ---- Agent-Pub (receiver thread) ----

  private void receive() {
    byte[] buf = new byte[65_535];
    DatagramPacket p = new DatagramPacket(buf, buf.length);
    while (!closed) {
      try {
        p.setLength(buf.length);
        socket.receive(p);
      } catch (IOException e) {
        if (!closed) {
          LOG.log(Level.WARNING, "receive", e);
        }
        continue;
      }
      counters.received.increment();
      EdgeMessage m;
      try {
        m = DatagramCodec.decode(p.getData(), p.getOffset(), p.getLength());
      } catch (DatagramException e) {
        counters.drop(e.reason());
        continue;
      } catch (RuntimeException e) {
        counters.drop("malformed"); // never expected: the codec throws only DatagramException
        continue;
      }
      if (m.origin().equals(edge)) {
        counters.drop("own_origin"); // a network group may include its own source
        continue;
      }
      publish(m);
    }
  }

  private void publish(EdgeMessage m) {
    MqttMessage out = new MqttMessage(m.payload());
    // QoS 2 is published as QoS 1: the hop between edges is one datagram, exactly-once is not
    // kept across it (docs/edge.md)
    out.setQos(Math.min(m.qos(), 1));
    out.setRetained(m.retain());
    try {
      mqtt.publish(m.topic(), out);
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

  // ---- MqttCallback ----

  @Override
  public void connectComplete(boolean reconnect, String serverUri) {
    if (reconnect) {
      // clean start: the broker forgot the subscriptions (not from the callback thread: Paho)
      resubscriber.execute(
          () -> {
            try {
              subscribe();
            } catch (MqttException e) {
              LOG.warning("subscribing again: " + e);
            }
          });
    }
  }

  @Override
  public void disconnected(MqttDisconnectResponse r) {
    if (!closed) {
      LOG.warning("broker connection lost: " + r);
    }
  }

  @Override
  public void mqttErrorOccurred(MqttException e) {
    LOG.warning("MQTT error: " + e);
  }

  @Override
  public void deliveryComplete(IMqttToken token) {}

  @Override
  public void authPacketArrived(int reasonCode, MqttProperties properties) {}

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
    try {
      if (mqtt.isConnected()) {
        mqtt.disconnect(2000);
      }
    } catch (MqttException e) {
      LOG.fine("disconnect: " + e);
    }
    try {
      mqtt.close(true);
    } catch (MqttException e) {
      LOG.fine("close: " + e);
    }
    socket.close();
    changes.interrupt();
    reporter.close();
    resubscriber.shutdownNow();
    try {
      receiver.join(2000);
      changes.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return Thread.ofPlatform().daemon().name(name).factory();
  }
}
