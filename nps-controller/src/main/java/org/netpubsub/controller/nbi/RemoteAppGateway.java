package org.netpubsub.controller.nbi;

import java.io.UncheckedIOException;
import java.net.BindException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiPredicate;
import org.netpubsub.network.nbi.InvariantVerdict;
import org.netpubsub.network.nbi.NbiTopic;
import org.netpubsub.network.nbi.PacketOutVerdict;
import org.netpubsub.network.topology.Topology;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;
import org.zeromq.ZMQException;

/**
 * The bus's side of remote apps (EMD's message queue, Algorithm 1's send_msg_topic): three ZeroMQ
 * sockets, each owned by one thread, as ZeroMQ sockets are not thread-safe.
 *
 * <ul>
 *   <li>control, REP: one-line text requests ({@code SUBSCRIBE app topic}), answered {@code OK} or
 *       {@code ERR reason};
 *   <li>data, ROUTER: each packet-in classified to a remote app, sent to the connections that
 *       joined the app ({@code HELLO app}, {@link RemoteAppRoutes}) and only those; switch
 *       executors hand them over through a bounded queue;
 *   <li>answers, PULL: packet-outs and flow-mods, handed to the same checks as in-process apps'.
 * </ul>
 *
 * With {@link RemoteAppKeys} every socket is a CURVE server: a {@link ZapHandler} admits only the
 * clients file's keys, so a peer without one neither sends a request or an answer nor receives a
 * packet-in, and each request, answer and hello must name an app its client may act as: a client
 * receives the packet-ins, refusals and topologies of its own apps only. Without keys the sockets
 * take anyone (NULL mechanism): loopback or an isolated lab only (the CLI enforces it).
 *
 * <p>Nothing a peer sends can stop a thread: malformed requests are refused, malformed answers
 * counted and dropped. Each thread waits at most {@link #POLL_MS} for its socket, then looks
 * whether the gateway is closing, so {@link #close} returns within about that time.
 */
final class RemoteAppGateway implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(RemoteAppGateway.class.getName());

  /** The longest control request read; longer ones are refused with their length. */
  static final int MAX_REQUEST = 4096;

  /**
   * ZeroMQ's ZMQ_MAXMSGSIZE on the control and answer sockets: a peer sending a larger message is
   * disconnected by ZeroMQ before the bus reads it, so no peer can make the bus buffer more.
   */
  static final long MAX_MESSAGE = 1 << 20;

  static final int POLL_MS = 100;

  // The bound sockets keep ZeroMQ's handshake interval (30 s): a peer that has not finished its
  // handshake (the ZAP reply included) by then is dropped. A 5 s interval on them made
  // NetworkControllerTest lose a remote app's flow-mods in 2 of 3 runs (0 of 3 without), cause not
  // traced.

  private static final String KNOWN = "REGISTER, SUBSCRIBE, UNSUBSCRIBE, BYE, PROBE, ALIVE";

  private final NorthboundBus bus;
  private final ZContext context;
  private final RemoteAppEndpoints endpoints;
  private volatile RemoteAppKeys keys; // null: no CURVE; replaced whole by a clients reload
  private final RemoteAppData data;
  private final List<Thread> threads = new ArrayList<>();
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile boolean running = true;
  private final AtomicLong answers = new AtomicLong();
  private final AtomicLong malformed = new AtomicLong();
  private final AtomicLong refused = new AtomicLong();
  private final AtomicLong forbidden = new AtomicLong();
  private final ZapHandler zap; // null: no CURVE
  // replaced whole by a clients file reload; read by the control and answer threads
  private volatile Map<String, RemoteAppKeys.Client> clientsByName = Map.of();
  private final RemoteAppRegistry registry;
  private final RateLimitedLog forbiddenLog = new RateLimitedLog(LOG, 10_000);

  /**
   * Binds the three sockets and starts their threads.
   *
   * @throws IllegalStateException if an endpoint cannot be bound
   */
  RemoteAppGateway(
      NorthboundBus bus,
      RemoteAppEndpoints bindTo,
      RemoteAppKeys keys,
      int queueCapacity,
      RemoteAppLeases.Limits limits) {
    this.bus = bus;
    this.registry = new RemoteAppRegistry(bus, limits);
    this.data =
        new RemoteAppData(
            queueCapacity,
            RemoteAppRoutes.of(limits),
            this::userId,
            this::forbiddenApp,
            refused::incrementAndGet);
    this.context = new ZContext(1);
    ZMQ.Socket control;
    ZMQ.Socket router;
    ZMQ.Socket pull;
    this.keys = keys;
    try {
      // bound before any CURVE socket: a handshake must never find no handler
      this.zap = keys == null ? null : new ZapHandler(context, keys);
    } catch (RuntimeException e) {
      context.close();
      throw e;
    }
    if (keys != null) {
      clientsByName = byName(keys.clients());
    }
    try {
      control = bind(SocketType.REP, bindTo.control(), "control");
      control.setReceiveTimeOut(POLL_MS);
      control.setMaxMsgSize(MAX_MESSAGE);
      router = bind(SocketType.ROUTER, bindTo.data(), "data");
      RemoteAppData.configure(router);
      pull = bind(SocketType.PULL, bindTo.answers(), "answers");
      pull.setReceiveTimeOut(POLL_MS);
      pull.setMaxMsgSize(MAX_MESSAGE);
    } catch (RuntimeException e) {
      context.close();
      throw e;
    }
    this.endpoints =
        new RemoteAppEndpoints(
            control.getLastEndpoint(), router.getLastEndpoint(), pull.getLastEndpoint());
    // each socket now moves to its thread (Thread.start is the memory barrier ZeroMQ asks for)
    if (zap != null) {
      start("nbi-remote-zap", () -> zap.serve(() -> running));
    }
    start("nbi-remote-control", () -> serveControl(control));
    start("nbi-remote-publisher", () -> data.serve(router, () -> running));
    start("nbi-remote-answers", () -> serveAnswers(pull));
  }

  private ZMQ.Socket bind(SocketType type, String endpoint, String what) {
    ZMQ.Socket s = context.createSocket(type);
    s.setLinger(0); // closing never waits for peers that are gone
    if (keys != null) {
      s.setZAPDomain(ZapHandler.DOMAIN);
      s.setCurveServer(true);
      s.setCurveSecretKey(keys.server().secretKey());
    }
    String where = "cannot bind the " + what + " endpoint " + endpoint;
    try {
      s.bind(endpoint);
    } catch (ZMQException e) {
      if (e.getErrorCode() == ZMQ.Error.EADDRINUSE.getCode()) {
        // an I/O failure, not a bug: the launcher prints it as one line
        BindException busy = new BindException(where + ": address already in use");
        busy.initCause(e);
        throw new UncheckedIOException(busy);
      }
      throw new IllegalStateException(where + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      throw new IllegalStateException(where + ": " + e.getMessage(), e);
    }
    return s;
  }

  private void start(String name, Runnable loop) {
    Thread t = new Thread(loop, name);
    t.setDaemon(true);
    threads.add(t);
    t.start();
  }

  RemoteAppEndpoints endpoints() {
    return endpoints;
  }

  long published() {
    return data.published();
  }

  long answers() {
    return answers.get();
  }

  long malformedAnswers() {
    return malformed.get();
  }

  long refusedRequests() {
    return refused.get();
  }

  /** Messages not sent to a data connection whose queue was full (a slow client). */
  long dropped() {
    return data.dropped();
  }

  /** Handshakes refused for want of an admitted CURVE key. */
  long unauthenticated() {
    return zap == null ? 0 : zap.refused();
  }

  /** The registrations' counts: refused at a cap, expired, revoked. */
  RemoteAppRegistry registry() {
    return registry;
  }

  /**
   * The clients file's new entries: new handshakes are admitted by them, each message of a
   * connection made before is checked against them (a removed client's requests and answers are
   * refused), and the registrations of apps their client may no longer act as are dropped.
   *
   * @throws IllegalStateException without CURVE
   */
  void clients(Map<String, RemoteAppKeys.Client> byKey) {
    RemoteAppKeys k = keys;
    if (k == null || zap == null) {
      throw new IllegalStateException("the remote northbound takes no CURVE keys to reload");
    }
    RemoteAppKeys next = new RemoteAppKeys(k.server(), byKey);
    Map<String, RemoteAppKeys.Client> names = byName(byKey);
    keys = next;
    clientsByName = names;
    zap.keys(next);
    BiPredicate<String, String> mayActAs =
        (client, app) -> names.containsKey(client) && names.get(client).mayActAs(app);
    registry.revoke(mayActAs);
    data.revoke(mayActAs); // connections made before the reload stop receiving at once
  }

  private static Map<String, RemoteAppKeys.Client> byName(Map<String, RemoteAppKeys.Client> m) {
    Map<String, RemoteAppKeys.Client> out = new HashMap<>();
    m.values().forEach(c -> out.put(c.name(), c));
    return Map.copyOf(out);
  }

  /** Requests and answers of an admitted client naming an app it may not act as. */
  long forbidden() {
    return forbidden.get();
  }

  /**
   * Queues a packet-in for a remote app; waits while the queue is full, as in-process apps' queues
   * do. After {@link #close} it is dropped.
   */
  void publish(String app, byte[] body) throws InterruptedException {
    data.publish(app, body, () -> running);
  }

  // --- control: REP ---

  private void serveControl(ZMQ.Socket control) {
    try {
      while (running) {
        try {
          registry.sweep(System.currentTimeMillis());
          zmq.Msg msg = control.recvMsg(0);
          if (msg == null) {
            continue; // no request within POLL_MS
          }
          byte[] request = msg.data();
          String user = userId(msg);
          boolean more = false;
          while (control.hasReceiveMore()) {
            control.recv(0);
            more = true;
          }
          String reply = more ? "ERR a request is one frame of text" : reply(request, user);
          if (reply.startsWith("ERR")) {
            refused.incrementAndGet();
          }
          control.send(reply);
        } catch (ZMQException e) {
          if (!running) {
            return;
          }
          LOG.log(System.Logger.Level.WARNING, "remote-app control socket failed", e);
        }
      }
    } finally {
      control.close();
    }
  }

  /** The CURVE client's name a message came from; null without CURVE. */
  private String userId(zmq.Msg msg) {
    if (keys == null) {
      return null;
    }
    zmq.io.Metadata m = msg.getMetadata();
    return m == null ? "" : m.get(zmq.io.Metadata.USER_ID);
  }

  /**
   * Why the CURVE client {@code user} may not act as {@code app}, or empty (always empty without
   * CURVE). Counted and logged at most once per 10 s.
   */
  private Optional<String> forbiddenApp(String user, String app) {
    if (keys == null) {
      return Optional.empty();
    }
    RemoteAppKeys.Client c = user == null ? null : clientsByName.get(user);
    if (c != null && c.mayActAs(app)) {
      return Optional.empty();
    }
    forbidden.incrementAndGet();
    forbiddenLog.warn(
        "refused remote-app messages for apps their client may not act as (last: client {0}, app {1})",
        user, app);
    return Optional.of("client '" + user + "' may not act as app '" + app + "'");
  }

  /** The reply to one request: {@code OK} or {@code ERR reason}. Never throws. */
  String reply(byte[] request) {
    return reply(request, null);
  }

  private String reply(byte[] request, String user) {
    if (request.length > MAX_REQUEST) {
      return "ERR request of " + request.length + " bytes, at most " + MAX_REQUEST;
    }
    String text = new String(request, StandardCharsets.UTF_8).strip();
    String[] w = text.split(" ", 3);
    String verb = w[0];
    try {
      switch (verb) {
        case "REGISTER", "BYE", "ALIVE" -> {
          if (w.length != 2) {
            return "ERR usage: " + verb + " APP";
          }
        }
        case "SUBSCRIBE", "UNSUBSCRIBE", "PROBE" -> {
          if (w.length != 3) {
            return "ERR usage: " + verb + " APP " + (verb.equals("PROBE") ? "TOKEN" : "TOPIC");
          }
        }
        default -> {
          return "ERR unknown request '" + RemoteWire.abbreviate(verb) + "' (known: " + KNOWN + ")";
        }
      }
      String app = w[1];
      Optional<String> badName = RemoteWire.nameProblem(app);
      if (badName.isPresent()) {
        return "ERR " + badName.get();
      }
      Optional<String> notYours = forbiddenApp(user, app);
      if (notYours.isPresent()) {
        return "ERR " + notYours.get();
      }
      long now = System.currentTimeMillis();
      switch (verb) {
        case "REGISTER" -> {
          Optional<String> no = registry.register(user, app, now);
          if (no.isPresent()) {
            return "ERR " + no.get();
          }
        }
        case "BYE" -> registry.bye(app);
        case "ALIVE" -> {
          if (!registry.touch(app, now)) {
            return "ERR app '" + app + "' is not registered (it said BYE or went silent)";
          }
        }
        case "SUBSCRIBE" -> {
          Optional<String> no = registry.subscribe(user, app, NbiTopic.parse(w[2]), now);
          if (no.isPresent()) {
            return "ERR " + no.get();
          }
        }
        case "UNSUBSCRIBE" -> registry.unsubscribe(app, NbiTopic.parse(w[2]), now);
        case "PROBE" -> {
          registry.touch(app, now);
          long token;
          try {
            token = Long.parseUnsignedLong(w[2], 16);
          } catch (NumberFormatException e) {
            return "ERR a probe token is 1 to 16 hex digits: '" + RemoteWire.abbreviate(w[2]) + "'";
          }
          // offer, not put: a full queue must not stall the control socket
          if (!data.offer(app, RemoteWire.probe(token))) {
            return "ERR busy: the publisher's queue is full, probe again";
          }
        }
        default -> throw new AssertionError(verb);
      }
      return "OK";
    } catch (IllegalArgumentException e) {
      // a topic's parse error names the column: "topic 'TEXT', column N: REASON"
      return "ERR " + e.getMessage();
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "remote-app request failed: " + text, e);
      return "ERR internal error: " + e;
    }
  }

  // --- answers: PULL ---

  private void serveAnswers(ZMQ.Socket pull) {
    try {
      while (running) {
        try {
          zmq.Msg msg = pull.recvMsg(0);
          if (msg == null) {
            continue;
          }
          String user = userId(msg);
          List<byte[]> parts = new ArrayList<>(2);
          parts.add(msg.data());
          int count = 1;
          while (pull.hasReceiveMore()) {
            byte[] p = pull.recv(0);
            if (++count <= 2) {
              parts.add(p);
            }
          }
          answer(parts, count, user);
        } catch (ZMQException e) {
          if (!running) {
            return;
          }
          LOG.log(System.Logger.Level.WARNING, "remote-app answer socket failed", e);
        }
      }
    } finally {
      pull.close();
    }
  }

  /** One answer, multipart [app][body]; anything else is counted and dropped. */
  private void answer(List<byte[]> parts, int count, String user) {
    if (count != 2) {
      drop("an answer has two frames (app, body), not " + count);
      return;
    }
    String app = new String(parts.get(0), StandardCharsets.UTF_8);
    if (RemoteWire.nameProblem(app).isPresent()) {
      drop(RemoteWire.nameProblem(app).get());
      return;
    }
    if (forbiddenApp(user, app).isPresent()) {
      return; // counted as forbidden, never reaches a switch
    }
    registry.touch(app, System.currentTimeMillis()); // an answer shows the app is alive
    Optional<AppContext> ctx = bus.remoteContext(app);
    if (ctx.isEmpty()) {
      drop("an answer from " + app + ", which is not a registered remote app");
      return;
    }
    RemoteWire.Answer a;
    try {
      a = RemoteWire.decodeAnswer(parts.get(1));
    } catch (IllegalArgumentException e) {
      drop("a malformed answer from " + app + ": " + e.getMessage());
      return;
    }
    answers.incrementAndGet();
    try {
      switch (a) {
        case RemoteWire.PacketOut p -> {
          PacketOutVerdict v = ctx.get().packetOut(p.cause(), p.dpid(), p.outPort(), p.frame());
          if (v == PacketOutVerdict.DEAD_PORT) {
            tell(
                app,
                RemoteWire.refusedPacketOut(
                    p.cause(), p.dpid(), p.outPort(), "the port leads nowhere"));
          }
        }
        case RemoteWire.FlowModAnswer f -> {
          InvariantVerdict v = ctx.get().flowMod(f.dpid(), f.mod());
          if (!v.accepted()) {
            String why = v.outcome().name().toLowerCase(Locale.ROOT).replace('_', ' ');
            tell(app, RemoteWire.refusedFlowMod(f.dpid(), f.mod(), why + ": " + v.reason()));
          }
        }
      }
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "an answer of " + app + " failed", e);
    }
  }

  /** Announces the topology to every remote app (from the bus's announcing thread). */
  void announce(Collection<String> apps, Topology t) {
    if (apps.isEmpty()) {
      return;
    }
    byte[] body = RemoteWire.topology(t);
    apps.forEach(app -> tell(app, body));
  }

  /** Queues a message for one app; one that does not fit the queue now is dropped. */
  private void tell(String app, byte[] body) {
    if (!data.offer(app, body)) {
      LOG.log(System.Logger.Level.WARNING, "remote app {0} missed a notice: queue full", app);
    }
  }

  private void drop(String why) {
    malformed.incrementAndGet();
    LOG.log(System.Logger.Level.DEBUG, "dropped {0}", why);
  }

  /** Stops the threads, which close their sockets, then terminates the context. Idempotent. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    running = false;
    data.clear();
    for (Thread t : threads) {
      if (t == Thread.currentThread()) {
        continue;
      }
      try {
        t.join(10L * POLL_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      if (t.isAlive()) {
        LOG.log(System.Logger.Level.WARNING, "{0} did not stop", t.getName());
      }
    }
    context.close(); // linger 0: returns at once, closing any socket a stuck thread still holds
  }
}
