package org.netpubsub.edge.broker;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.Delivery;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.logging.Logger;
import org.netpubsub.edge.amqp.AmqpTopics;

/**
 * {@link EdgeAgent} beside RabbitMQ (docs/edge.md). Agent-Sub: one queue bound with {@code #} to
 * every topic exchange of the broker captures what local clients publish ({@link AgentCore#forward}
 * under coordinator topic {@link AmqpTopics#topic}); Agent-Pub publishes what other edges send into
 * the same exchange with the same routing key, properties and body, plus header {@value #ORIGIN},
 * by which Agent-Sub knows it and never sends it back out. The event exchange tells the agent which
 * exchanges and bindings local clients create and delete: bindings become coordinator filters
 * ({@link LocalBindings}), exchanges are reported so that every other AMQP edge declares them too
 * (SNAPS §II-C 2b), and this agent declares (and deletes) what the others' clients declared.
 *
 * <p>Threads: the client's dispatch runs the capture consumer (Agent-Sub) and the event consumer,
 * each in order; the core's receiver thread publishes. Exchange bookkeeping ({@code known}, {@code
 * mirrored}) and the admin channel are guarded by {@code this}.
 */
final class AmqpEdgeAgent extends CoreBackedAgent<LocalBindings> implements AgentCore.Local {
  private static final Logger LOG = Logger.getLogger(AmqpEdgeAgent.class.getName());

  /**
   * The header Agent-Pub adds: the edge a message came from (like federation's x-received-from).
   */
  static final String ORIGIN = "x-nps-origin";

  private static final String EVENTS = "amq.rabbitmq.event";

  private final String vhost;
  private final ConnectionFactory factory;
  private final String captureQueue;
  private final String eventQueue;
  private Connection data;
  private Connection events; // the event exchange lives in the default virtual host
  private Channel capture;
  private Channel admin;
  private Channel publisher; // the core's receiver thread only
  private final Set<String> known = new HashSet<>(); // topic exchanges local clients declared
  private final Set<String> mirrored = new HashSet<>(); // declared by this agent for other edges
  private final Map<String, String> types = new HashMap<>();

  private AmqpEdgeAgent(EdgeAgent.Builder b, DatagramSocket socket) {
    super(new AgentCore<>(b, socket, new LocalBindings()));
    String path = b.broker.getRawPath();
    this.vhost =
        path == null || path.isEmpty() || path.equals("/")
            ? "/"
            : URLDecoder.decode(path.substring(1), StandardCharsets.UTF_8);
    this.factory = new ConnectionFactory();
    factory.setHost(b.broker.getHost());
    factory.setPort(b.broker.getPort());
    if (b.broker.getRawUserInfo() != null) {
      String[] user = b.broker.getUserInfo().split(":", 2);
      factory.setUsername(user[0]);
      factory.setPassword(user.length > 1 ? user[1] : "");
    }
    factory.setConnectionTimeout((int) b.coordinatorTimeout.toMillis());
    factory.setAutomaticRecoveryEnabled(true); // queues, bindings and consumers come back
    this.captureQueue = "nps-agent-capture-" + b.edge;
    this.eventQueue = "nps-agent-events-" + b.edge;
  }

  static EdgeAgent start(EdgeAgent.Builder b) throws IOException {
    DatagramSocket socket = AgentCore.bind(b.listen);
    AmqpEdgeAgent a = new AmqpEdgeAgent(b, socket);
    try {
      a.connect();
      a.core.register(a); // mirrors what other edges declared (registered())
      a.consume();
      a.core.start();
      return a;
    } catch (TimeoutException | IOException e) {
      a.close();
      throw new IOException("cannot connect to the broker " + b.broker + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      a.close();
      throw e;
    }
  }

  private void connect() throws IOException, TimeoutException {
    factory.setVirtualHost(vhost);
    data = factory.newConnection("nps-edge-agent-" + core.edge);
    if (vhost.equals("/")) {
      events = data;
    } else {
      factory.setVirtualHost("/");
      events = factory.newConnection("nps-edge-agent-events-" + core.edge);
    }
    admin = data.createChannel();
    publisher = data.createChannel();
    capture = data.createChannel();
    capture.queueDeclare(captureQueue, false, true, true, null);
    capture.queueBind(captureQueue, "amq.topic", "#"); // the broker's own topic exchange
    synchronized (this) {
      known.add("amq.topic");
    }
    Channel ev = events.createChannel();
    ev.queueDeclare(eventQueue, false, true, true, null);
    ev.queueBind(eventQueue, EVENTS, "exchange.*");
    ev.queueBind(eventQueue, EVENTS, "binding.*");
    this.eventChannel = ev;
  }

  private Channel eventChannel;

  private void consume() throws IOException {
    eventChannel.basicConsume(eventQueue, true, (tag, d) -> onEvent(d), tag -> {});
    capture.basicConsume(captureQueue, true, (tag, d) -> onCaptured(d), tag -> {});
  }

  // ---- Agent-Sub (the capture consumer) ----

  private void onCaptured(Delivery d) {
    AMQP.BasicProperties p = d.getProperties();
    if (p.getHeaders() != null && p.getHeaders().containsKey(ORIGIN)) {
      return; // Agent-Pub's: it came from another edge
    }
    String exchange = d.getEnvelope().getExchange();
    String key = d.getEnvelope().getRoutingKey();
    String topic = AmqpTopics.topic(exchange, key);
    try {
      byte[] payload = new AmqpEnvelope(exchange, key, p, d.getBody()).encode();
      core.forward(topic, payload, 0, false);
    } catch (DatagramException e) {
      core.counters.drop(e.reason());
    } catch (RuntimeException e) {
      core.failed(topic, e);
    }
  }

  // ---- local exchanges and bindings (the event consumer) ----

  private void onEvent(Delivery d) {
    AmqpEvent.parse(d.getEnvelope().getRoutingKey(), d.getProperties().getHeaders(), vhost)
        .ifPresent(this::onEvent);
  }

  private synchronized void onEvent(AmqpEvent ev) {
    switch (ev) {
      case AmqpEvent.ExchangeCreated x -> {
        if (!x.type().equals("topic")
            || mirrored.contains(x.name())
            || x.name().startsWith("amq.")) {
          return;
        }
        known.add(x.name());
        types.put(x.name(), x.type());
        bindCapture(x.name()); // before the report: once others can bind, publishes are captured
        CoordinatorClient.Exchange spec =
            new CoordinatorClient.Exchange(x.name(), x.type(), x.durable(), List.of());
        core.reporter()
            .report(() -> core.coordinator.reportExchanges(core.edge, List.of(spec), List.of()));
      }
      case AmqpEvent.ExchangeDeleted x -> {
        boolean mine = known.remove(x.name());
        boolean mirror = mirrored.remove(x.name());
        if (!mine && !mirror) {
          return;
        }
        core.reporter().update(local -> local.exchangeGone(x.name()));
        if (mine) {
          core.reporter()
              .report(
                  () -> core.coordinator.reportExchanges(core.edge, List.of(), List.of(x.name())));
        }
      }
      case AmqpEvent.Binding b -> {
        if (b.destination().equals(captureQueue) || b.destination().equals(eventQueue)) {
          return;
        }
        if (b.created() && !known.contains(b.source()) && !mirrored.contains(b.source())) {
          return; // not a topic exchange this agent knows
        }
        core.reporter().update(local -> local.apply(b));
      }
    }
  }

  private void bindCapture(String exchange) {
    try {
      admin().queueBind(captureQueue, exchange, "#");
    } catch (IOException | RuntimeException e) {
      LOG.warning("cannot capture exchange '" + exchange + "': " + e);
    }
  }

  private Channel admin() throws IOException {
    if (!admin.isOpen()) {
      admin = data.createChannel(); // a refused operation closed the last one
    }
    return admin;
  }

  // ---- mirroring (registration, and the coordinator's changes) ----

  @Override
  public void registered() {
    mirror();
  }

  @Override
  public void exchangesChanged() {
    mirror();
  }

  /**
   * Declares here every exchange other edges' clients declared, deletes mirrors nobody declares any
   * more; after a restart, exchanges this edge declared are captured again (or reported gone).
   */
  private void mirror() {
    List<CoordinatorClient.Exchange> all;
    try {
      all = core.coordinator.exchanges();
    } catch (CoordinatorClient.CoordinatorException e) {
      LOG.warning("exchanges to mirror: " + e.getMessage());
      return;
    }
    synchronized (this) {
      Set<String> wanted = new HashSet<>();
      for (CoordinatorClient.Exchange x : all) {
        if (x.edges().contains(core.edge)) {
          if (!known.contains(x.name())) {
            reclaim(x.name());
          }
          continue;
        }
        wanted.add(x.name());
        if (known.contains(x.name()) || mirrored.contains(x.name())) {
          continue;
        }
        mirrored.add(x.name()); // before declaring: its created event is then ours
        try {
          admin().exchangeDeclare(x.name(), x.type(), x.durable(), false, null);
          bindCapture(x.name());
        } catch (IOException | RuntimeException e) {
          mirrored.remove(x.name());
          LOG.warning("cannot mirror exchange '" + x.name() + "': " + e);
        }
      }
      for (String m : Set.copyOf(mirrored)) {
        if (!wanted.contains(m)) {
          try {
            admin().exchangeDelete(m); // its deleted event drops it from mirrored
          } catch (IOException | RuntimeException e) {
            LOG.warning("cannot delete mirror '" + m + "': " + e);
          }
        }
      }
    }
  }

  /** An exchange the coordinator says this edge declared (before an agent restart). */
  private void reclaim(String name) {
    try {
      admin().exchangeDeclarePassive(name);
      known.add(name);
      bindCapture(name);
    } catch (IOException | RuntimeException e) {
      core.reporter()
          .report(() -> core.coordinator.reportExchanges(core.edge, List.of(), List.of(name)));
    }
  }

  // ---- Agent-Pub (the core's receiver thread) ----

  @Override
  public void publish(EdgeMessage m) throws IOException, DatagramException {
    AmqpEnvelope e = AmqpEnvelope.decode(m.payload());
    if (!AmqpTopics.topic(e.exchange(), e.routingKey()).equals(m.topic())) {
      throw new DatagramException("bad_envelope", "envelope and topic disagree");
    }
    synchronized (this) {
      if (!known.contains(e.exchange()) && !mirrored.contains(e.exchange())) {
        throw new DatagramException("no_exchange", "no exchange '" + e.exchange() + "' here");
      }
    }
    Map<String, Object> headers = new HashMap<>();
    if (e.properties().getHeaders() != null) {
      headers.putAll(e.properties().getHeaders());
    }
    headers.put(ORIGIN, m.origin());
    if (!publisher.isOpen()) {
      publisher = data.createChannel(); // a publish to a just-deleted exchange closed it
    }
    publisher.basicPublish(
        e.exchange(), e.routingKey(), e.properties().builder().headers(headers).build(), e.body());
  }

  // ---- EdgeAgent ----

  @Override
  public void close() {
    if (core.closed()) {
      return;
    }
    for (Connection c : new Connection[] {events, data}) {
      if (c != null && c.isOpen()) {
        try {
          c.close(2000);
        } catch (IOException | RuntimeException e) {
          LOG.fine("closing the broker connection: " + e);
        }
      }
    }
    core.close();
  }
}
