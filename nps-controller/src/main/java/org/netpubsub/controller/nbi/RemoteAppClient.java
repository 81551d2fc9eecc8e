package org.netpubsub.controller.nbi;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.netpubsub.network.nbi.NbiTopic;
import org.netpubsub.network.nbi.PacketInView;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.topology.Topology;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;
import org.zeromq.ZMQException;

/**
 * A controller app in its own process, on the northbound bus over ZeroMQ: the remote twin of {@link
 * ControllerApp}. It registers under a name, subscribes to topics in {@link NbiTopic#parse} syntax,
 * gets the packet-ins they match (the same ones an in-process app with those topics gets, with the
 * same ids) and answers with packet-outs and flow-mods, which the bus checks as it checks
 * in-process apps' answers.
 *
 * <pre>{@code
 * try (RemoteAppClient app = RemoteAppClient.connect("flooder", endpoints,
 *     (in, me) -> me.packetOut(in, in.dpid(), OfPort.FLOOD, in.data()))) {
 *   app.subscribe("eth_type=0x86dd,udp_dst=7073");
 *   ...
 * }
 * }</pre>
 *
 * <p>Threads: the handler runs on the data socket's thread, one packet-in at a time in the order
 * the bus published them, so it needs no locking of its own. Answers wait in a bounded queue for
 * the answer socket's thread. Control requests ({@link #subscribe} ...) may come from any thread;
 * they use the control socket one at a time under a lock, which is the full memory barrier ZeroMQ
 * asks for when a socket changes threads. Answers are one-way: the bus's verdict (duplicate,
 * refused flow-mod) shows in its metrics, not here.
 */
public final class RemoteAppClient implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(RemoteAppClient.class.getName());

  /** How long {@link #connect} and each control request wait for the bus by default. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

  private static final int POLL_MS = 100;

  /** The data thread's wait while it has not had an answer to its hello: connecting waits on it. */
  private static final int JOIN_POLL_MS = 10;

  /**
   * How often a registered client says {@code ALIVE}: the bus drops a registration silent for
   * longer than its limit (60 s by default, {@link RemoteAppLeases.Limits}).
   */
  static final Duration KEEPALIVE = Duration.ofSeconds(10);

  private static final int ANSWER_QUEUE = 1024;

  /** How long closing waits for queued answers to leave (the answer socket's linger). */
  private static final int FLUSH_MS = 1000;

  /**
   * ZMQ_HANDSHAKE_IVL of every socket the client connects, instead of ZeroMQ's 30 s. JeroMQ 0.6.0
   * sometimes leaves a freshly connected TCP socket without its ZMTP handshake (a race in its
   * poller, zeromq/jeromq#1022, ~1-6 % of connections) until the handshake timer drops it and it
   * reconnects; a connection's queued messages survive that. A second covers a handshake's two
   * round trips on any network a controller sits on.
   */
  static final int HANDSHAKE_MS = 1000;

  /** What the app does with a packet-in; it may answer through {@code app}. */
  @FunctionalInterface
  public interface Handler {
    void onPacketIn(PacketInView packetIn, RemoteAppClient app);

    /**
     * The bus refused one of the app's answers: a flow-mod that would loop or black-hole a
     * destination, or a packet-out towards a dead port. Default: ignored.
     */
    default void onRefused(Refusal refusal, RemoteAppClient app) {}

    /**
     * The topology, announced when it changes and after a packet-out met a dead port (Algorithm 2,
     * line 14). Default: ignored.
     */
    default void onTopology(Topology topology, RemoteAppClient app) {}
  }

  /**
   * An answer the bus refused, and why: a flow-mod ({@code flowMod} present), or a packet-out
   * answering packet-in {@code packetInId} towards {@code outPort}.
   */
  public record Refusal(
      long dpid, String reason, Optional<FlowMod> flowMod, long packetInId, long outPort) {}

  private final String name;
  private final RemoteAppEndpoints bus;
  private final RemoteAppCredentials credentials; // null: the bus takes anyone
  private final Duration timeout;
  private final Handler handler;
  private final ZContext context = new ZContext(1);
  private final Object controlLock = new Object();
  private ZMQ.Socket control; // guarded by controlLock; null after a lost reply
  private final BlockingQueue<byte[]> outbox = new ArrayBlockingQueue<>(ANSWER_QUEUE);
  private final Thread receiver;
  private final Thread pusher;
  private final CountDownLatch stopped = new CountDownLatch(1); // opens on close: keepalive ends
  private final CountDownLatch welcomed = new CountDownLatch(1); // the bus answered the hello
  private volatile String helloRefused; // the bus's ERR reason, or null
  private volatile boolean joining; // registered: the data thread says hello
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile boolean accepting = true; // answers are taken
  private volatile boolean running = true; // the socket threads run
  private volatile boolean registered;
  private final AtomicLong received = new AtomicLong();
  private final AtomicLong topologies = new AtomicLong();
  private final AtomicLong handlerFailures = new AtomicLong();
  private final AtomicLong malformed = new AtomicLong();
  private final AtomicLong sent = new AtomicLong();

  private RemoteAppClient(
      String name,
      RemoteAppEndpoints bus,
      RemoteAppCredentials credentials,
      Duration timeout,
      Handler handler) {
    this.name = name;
    this.bus = bus;
    this.credentials = credentials;
    this.timeout = timeout;
    this.handler = handler;
    ZMQ.Socket dealer;
    ZMQ.Socket push;
    try {
      dealer = context.createSocket(SocketType.DEALER);
      dealer.setLinger(0);
      dealer.setHandshakeIvl(HANDSHAKE_MS);
      secure(dealer);
      dealer.setReceiveTimeOut(JOIN_POLL_MS); // POLL_MS once the bus answered the hello
      dealer.connect(bus.data());
      push = context.createSocket(SocketType.PUSH);
      push.setLinger(FLUSH_MS);
      push.setHandshakeIvl(HANDSHAKE_MS);
      secure(push);
      push.setSendTimeOut(POLL_MS);
      push.connect(bus.answers());
      synchronized (controlLock) {
        control = controlSocket();
      }
    } catch (RuntimeException e) {
      context.close();
      throw new IllegalArgumentException("cannot connect to " + bus + ": " + e.getMessage(), e);
    }
    this.receiver = thread("nbi-remote-" + name + "-data", () -> receive(dealer));
    this.pusher = thread("nbi-remote-" + name + "-answers", () -> push(push));
  }

  /** {@link #connect(String, RemoteAppEndpoints, Duration, Handler)} with the default timeout. */
  public static RemoteAppClient connect(String app, RemoteAppEndpoints bus, Handler handler) {
    return connect(app, bus, DEFAULT_TIMEOUT, handler);
  }

  /**
   * Registers {@code app} with the bus and returns once packet-ins can reach it: its data
   * connection says {@code HELLO app} until the bus answers (the bus sends an app's messages only
   * to connections that joined it, and only those its client may act as). The app has no topics
   * yet; it gets FOR_ALL packet-ins and, on a broadcast bus, everything.
   *
   * @param app 1 to 64 of A-Z a-z 0-9 . _ : - ; processes that register one name share its topics
   *     and each get its packet-ins
   * @throws IllegalArgumentException if the bus refuses the name (e.g. an in-process app has it)
   * @throws IllegalStateException if the bus does not answer a request or the hello within {@code
   *     timeout}
   */
  public static RemoteAppClient connect(
      String app, RemoteAppEndpoints bus, Duration timeout, Handler handler) {
    return connect(app, bus, null, timeout, handler);
  }

  /**
   * As {@link #connect(String, RemoteAppEndpoints, Duration, Handler)}, to a bus that takes CURVE
   * ({@code nps controller --nbi-remote-key}): every socket checks the bus's public key and offers
   * the client's key pair, whose public key the bus's clients file admits for {@code app}. Null
   * credentials: a bus without CURVE. A bus that refuses the key answers nothing, so this fails
   * with "the bus did not answer" after {@code timeout}.
   */
  public static RemoteAppClient connect(
      String app,
      RemoteAppEndpoints bus,
      RemoteAppCredentials credentials,
      Duration timeout,
      Handler handler) {
    RemoteWire.nameProblem(app)
        .ifPresent(
            why -> {
              throw new IllegalArgumentException(why);
            });
    if (handler == null || timeout == null || timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("a handler and a positive timeout are required");
    }
    RemoteAppClient c = new RemoteAppClient(app, bus, credentials, timeout, handler);
    try {
      c.require("REGISTER " + app);
      c.registered = true;
      c.joining = true; // only now: a name the bus refused is never said in a hello
      c.awaitWelcome();
      c.thread("nbi-remote-" + app + "-keepalive", c::keepAlive);
      return c;
    } catch (RuntimeException e) {
      c.close();
      throw e;
    }
  }

  public String name() {
    return name;
  }

  /**
   * Adds a topic ({@link NbiTopic#parse} syntax). Packet-ins the bus classifies after this returns
   * match it.
   *
   * @throws IllegalArgumentException with the bus's reason if it refuses, e.g. "topic 'TEXT',
   *     column N: REASON" for a malformed topic
   * @throws IllegalStateException if the bus does not answer in time
   */
  public void subscribe(String topic) {
    require("SUBSCRIBE " + name + " " + topic);
  }

  public void subscribe(NbiTopic topic) {
    subscribe(topic.toString());
  }

  /** Removes a topic; refused if the app is not subscribed to it. */
  public void unsubscribe(String topic) {
    require("UNSUBSCRIBE " + name + " " + topic);
  }

  /**
   * Sends {@code frame} out of {@code outPort} of switch {@code dpid}, in answer to {@code cause};
   * the bus drops it if another app already answered that packet-in there (as {@link
   * AppContext#packetOut} does). Waits while the answer queue is full.
   *
   * @throws IllegalStateException once the client is closed
   */
  public void packetOut(PacketInView cause, long dpid, long outPort, byte[] frame) {
    enqueue(RemoteWire.packetOut(cause, dpid, outPort, frame));
  }

  /**
   * Sends a flow-mod as an OpenFlow 1.3 FLOW_MOD; the bus checks it for loops and black holes first
   * (as {@link AppContext#flowMod} does).
   */
  public void flowMod(long dpid, FlowMod mod) {
    enqueue(RemoteWire.flowMod(dpid, mod));
  }

  /** Packet-ins handed to the handler. */
  public long received() {
    return received.get();
  }

  /** Packet-ins whose handler threw (the client keeps going). */
  public long handlerFailures() {
    return handlerFailures.get();
  }

  /** Answers written to the answer socket. */
  public long sent() {
    return sent.get();
  }

  /**
   * Sends the queued answers (waiting up to a second for the bus), says {@code BYE} so the bus
   * forgets the app and its topics, and closes the sockets. Answers still travelling when the bus
   * handles the BYE are dropped there, as from any unregistered app. Idempotent.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    accepting = false;
    stopped.countDown();
    join(pusher, FLUSH_MS); // drains the queue unless the bus is gone
    if (registered) {
      try {
        require("BYE " + name);
      } catch (RuntimeException e) {
        LOG.log(System.Logger.Level.DEBUG, "no BYE for " + name + ": " + e.getMessage());
      }
    }
    running = false; // each thread sees it within POLL_MS and closes its own socket
    join(pusher, 10L * POLL_MS);
    join(receiver, 10L * POLL_MS);
    synchronized (controlLock) {
      if (control != null) {
        control.close();
        control = null;
      }
    }
    context.close();
  }

  /** Says ALIVE every {@link #KEEPALIVE} until closed, so the bus keeps the registration. */
  private void keepAlive() {
    try {
      while (!stopped.await(KEEPALIVE.toMillis(), TimeUnit.MILLISECONDS)) {
        try {
          require("ALIVE " + name);
        } catch (RuntimeException e) {
          // the bus is away or dropped the app: packet-ins stop; reconnecting is the app's choice
          LOG.log(System.Logger.Level.WARNING, name + ": keepalive refused: " + e.getMessage());
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Sends one request and returns the bus's reply (package-private: tests send raw ones). */
  String call(String request) {
    synchronized (controlLock) {
      if (!running) {
        throw new IllegalStateException(name + " is closed");
      }
      if (control == null) {
        control = controlSocket();
      }
      if (!control.send(request)) {
        // no bus to take it: drop the socket, whose REQ state now expects a reply
        control.close();
        control = null;
        throw new IllegalStateException("cannot send to the bus at " + bus.control());
      }
      String reply = control.recvStr(0);
      if (reply == null) {
        // the lazy-pirate way: a REQ socket that missed its reply is unusable, so start afresh
        control.close();
        control = null;
        throw new IllegalStateException(
            "no reply from the bus at " + bus.control() + " within " + timeout + " to " + request);
      }
      return reply;
    }
  }

  private void require(String request) {
    String reply = call(request);
    if (reply.equals("OK")) {
      return;
    }
    if (reply.startsWith("ERR ")) {
      throw new IllegalArgumentException(reply.substring(4));
    }
    throw new IllegalStateException("unexpected reply to " + request + ": " + reply);
  }

  private void secure(ZMQ.Socket s) {
    if (credentials != null) {
      credentials.apply(s);
    }
  }

  private ZMQ.Socket controlSocket() {
    ZMQ.Socket s = context.createSocket(SocketType.REQ);
    s.setLinger(0);
    s.setHandshakeIvl(HANDSHAKE_MS);
    secure(s);
    s.setReceiveTimeOut((int) timeout.toMillis());
    s.setSendTimeOut((int) timeout.toMillis());
    s.connect(bus.control());
    return s;
  }

  /** Waits for the bus's answer to the data connection's hello (sent by the data thread). */
  private void awaitWelcome() {
    try {
      if (!welcomed.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException(
            "no answer to " + name + "'s hello from " + bus.data() + " within " + timeout);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while connecting " + name, e);
    }
    String no = helloRefused;
    if (no != null) {
      throw new IllegalArgumentException(no);
    }
  }

  private void enqueue(byte[] answer) {
    try {
      while (accepting) {
        if (outbox.offer(answer, POLL_MS, TimeUnit.MILLISECONDS)) {
          return;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    throw new IllegalStateException(name + " is closed");
  }

  private Thread thread(String threadName, Runnable loop) {
    Thread t = new Thread(loop, threadName);
    t.setDaemon(true);
    t.start();
    return t;
  }

  private static void join(Thread t, long millis) {
    if (t == Thread.currentThread()) {
      return; // closed from the handler: this thread ends when its loop sees running is false
    }
    try {
      t.join(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  // --- data: DEALER ---

  /**
   * Once registered, says {@code HELLO app} at once, again after 20 ms, 40 ms, ... up to 500 ms
   * until the bus answers, then every {@link #KEEPALIVE} (the bus forgets a connection silent for
   * its limit, and a reconnected one is new to it), and hands what arrives to the handler.
   */
  private void receive(ZMQ.Socket data) {
    byte[] hello = ("HELLO " + name).getBytes(StandardCharsets.UTF_8);
    long next = System.nanoTime();
    long backoffMs = 20;
    boolean slow = false; // the receive timeout is POLL_MS
    try {
      while (running) {
        byte[] body;
        try {
          long now = System.nanoTime();
          if (joining && now - next >= 0) {
            data.send(hello, ZMQ.DONTWAIT); // queued until connected; a full queue skips one
            boolean answered = welcomed.getCount() == 0;
            next = now + (answered ? KEEPALIVE.toNanos() : backoffMs * 1_000_000);
            backoffMs = Math.min(2 * backoffMs, 500);
          }
          if (!slow && welcomed.getCount() == 0) {
            data.setReceiveTimeOut(POLL_MS);
            slow = true;
          }
          if (data.recv(0) == null) {
            continue; // nothing within POLL_MS
          }
          body = data.hasReceiveMore() ? data.recv(0) : null;
          while (data.hasReceiveMore()) {
            data.recv(0);
            body = null;
          }
        } catch (ZMQException e) {
          if (!running) {
            return;
          }
          LOG.log(System.Logger.Level.WARNING, name + ": data socket failed", e);
          continue;
        }
        deliver(body);
      }
    } finally {
      data.close();
    }
  }

  private void deliver(byte[] body) {
    RemoteWire.Data d;
    try {
      if (body == null) {
        throw new IllegalArgumentException("a data message has two frames");
      }
      d = RemoteWire.decodeData(body);
    } catch (IllegalArgumentException e) {
      malformed.incrementAndGet();
      LOG.log(System.Logger.Level.DEBUG, name + ": dropped data: " + e.getMessage());
      return;
    }
    switch (d) {
      case RemoteWire.Probe p -> {
        // asked for by PROBE requests; this client needs none since it says hello
      }
      case RemoteWire.Welcome w -> {
        if (!w.reply().equals("OK")) {
          helloRefused = w.reply().startsWith("ERR ") ? w.reply().substring(4) : w.reply();
          LOG.log(System.Logger.Level.WARNING, name + ": the bus refused the hello: " + w.reply());
        }
        welcomed.countDown();
      }
      case RemoteWire.PacketIn p -> {
        received.incrementAndGet();
        handle(() -> handler.onPacketIn(p.view(), this), p.view());
      }
      case RemoteWire.Refused r ->
          handle(
              () ->
                  handler.onRefused(
                      new Refusal(
                          r.dpid(),
                          r.reason(),
                          Optional.ofNullable(r.flowMod()),
                          r.packetInId(),
                          r.outPort()),
                      this),
              "a refusal");
      case RemoteWire.TopologyData t -> {
        topologies.incrementAndGet();
        handle(() -> handler.onTopology(t.topology(), this), "a topology");
      }
    }
  }

  private void handle(Runnable call, Object what) {
    try {
      call.run();
    } catch (RuntimeException e) {
      handlerFailures.incrementAndGet();
      LOG.log(System.Logger.Level.WARNING, name + " failed on " + what, e);
    }
  }

  /** Topology announcements received. */
  public long topologies() {
    return topologies.get();
  }

  // --- answers: PUSH ---

  private void push(ZMQ.Socket push) {
    byte[] app = name.getBytes(StandardCharsets.UTF_8);
    try {
      while (running) {
        byte[] body;
        try {
          body = outbox.poll(POLL_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
          return;
        }
        if (body == null) {
          if (!accepting) {
            return; // closing and drained
          }
          continue;
        }
        try {
          // PUSH waits while the bus is unreachable; retry until it takes the message or we stop
          while (!push.sendMore(app)) {
            if (!running) {
              return;
            }
          }
          push.send(body); // a message's later frames never wait once its first is taken
          sent.incrementAndGet();
        } catch (ZMQException e) {
          if (!running) {
            return;
          }
          LOG.log(System.Logger.Level.WARNING, name + ": answer socket failed", e);
        }
      }
    } finally {
      push.close();
    }
  }
}
