package org.netpubsub.controller.nbi;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.function.BiPredicate;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.zeromq.ZMQ;
import org.zeromq.ZMQException;

/**
 * The bus's data socket for remote apps: a ROUTER, so each message goes to chosen connections
 * rather than to every subscriber (issue 27; a PUB lets a subscriber choose its own topic filter,
 * so any admitted client could read every app's packet-ins). A client's DEALER says {@code HELLO
 * app}; the connection's user id (its CURVE client's name, set by the ZAP handler) must be allowed
 * to act as the app, and then the app's packet-ins, probes, refusals and topologies go to that
 * connection ({@link RemoteAppRoutes}). Without CURVE there is no user: any connection may join any
 * app by name, as any subscriber could before (loopback or an isolated lab only).
 *
 * <p>One thread owns the socket ({@link #serve}); switch executors and the control and answer
 * threads hand messages over through a bounded queue. A packet-in for several connections is one
 * array sent to each. The bus never waits for a client: a connection whose queue is full ({@link
 * #SEND_HWM}) misses the message, counted in {@link #dropped}.
 */
final class RemoteAppData {
  private static final System.Logger LOG = System.getLogger(RemoteAppData.class.getName());

  /**
   * How long the thread waits for an outgoing message before it reads hellos again: a hello is
   * answered within about this (a connecting client waits for its answer), at 100 idle wake-ups a
   * second.
   */
  static final int IDLE_MS = 10;

  /** Messages sent between two looks for hellos while the queue is busy. */
  private static final int BATCH = 64;

  /**
   * ZeroMQ's send high-water mark per data connection: a client further behind than this misses
   * messages (counted in {@link #dropped}); the bus never waits for it, as PUB never did.
   */
  static final int SEND_HWM = 1000;

  private static final String USAGE = "ERR a hello is one frame of text: HELLO APP";

  private record Outgoing(String app, byte[] topic, byte[] body) {}

  private final BlockingQueue<Outgoing> outbox;
  private final RemoteAppRoutes routes;
  private final Function<zmq.Msg, String> userOf;
  private final BiFunction<String, String, Optional<String>> forbidden;
  private final Runnable refused;
  private final AtomicLong published = new AtomicLong();
  private final AtomicLong dropped = new AtomicLong();

  /**
   * @param userOf the user id a received message carries (null without CURVE)
   * @param forbidden why a user may not act as an app (counted by it), or empty
   * @param refused counts a hello answered with {@code ERR}
   */
  RemoteAppData(
      int queueCapacity,
      RemoteAppRoutes routes,
      Function<zmq.Msg, String> userOf,
      BiFunction<String, String, Optional<String>> forbidden,
      Runnable refused) {
    this.outbox = new ArrayBlockingQueue<>(queueCapacity);
    this.routes = routes;
    this.userOf = userOf;
    this.forbidden = forbidden;
    this.refused = refused;
  }

  /** The options of the bound socket (before any peer connects). */
  static void configure(ZMQ.Socket router) {
    router.setRouterMandatory(true); // an unknown or full connection is reported, not skipped
    router.setSndHWM(SEND_HWM);
    router.setMaxMsgSize(RemoteAppGateway.MAX_MESSAGE);
  }

  long published() {
    return published.get();
  }

  long dropped() {
    return dropped.get();
  }

  /** Stops sending {@code mayActAs}-forbidden apps' messages to connections made before. */
  void revoke(BiPredicate<String, String> mayActAs) {
    routes.revoke(mayActAs);
  }

  /**
   * Queues a message for {@code app}; waits while the queue is full, until {@code running} ends.
   */
  void publish(String app, byte[] body, BooleanSupplier running) throws InterruptedException {
    Outgoing o = new Outgoing(app, RemoteWire.topic(app), body);
    while (running.getAsBoolean()) {
      if (outbox.offer(o, RemoteAppGateway.POLL_MS, TimeUnit.MILLISECONDS)) {
        return;
      }
    }
  }

  /** Queues a message for {@code app} if there is room now. */
  boolean offer(String app, byte[] body) {
    return outbox.offer(new Outgoing(app, RemoteWire.topic(app), body));
  }

  void clear() {
    outbox.clear();
  }

  /** Sends and answers hellos until {@code running} turns false; then closes the socket. */
  void serve(ZMQ.Socket data, BooleanSupplier running) {
    long lastSweep = 0;
    try {
      while (running.getAsBoolean()) {
        try {
          readHellos(data);
          Outgoing o = outbox.poll(IDLE_MS, TimeUnit.MILLISECONDS);
          for (int n = 0; o != null; o = ++n < BATCH ? outbox.poll() : null) {
            send(data, o);
          }
          long now = System.currentTimeMillis();
          if (now - lastSweep >= RemoteAppRegistry.SWEEP_MS) {
            lastSweep = now;
            routes.expire(now);
          }
        } catch (InterruptedException e) {
          return;
        } catch (ZMQException e) {
          if (!running.getAsBoolean()) {
            return;
          }
          LOG.log(System.Logger.Level.WARNING, "remote-app data socket failed", e);
        }
      }
    } finally {
      data.close();
    }
  }

  /** One message to each connection of its app; the body is the same array for all of them. */
  private void send(ZMQ.Socket data, Outgoing o) {
    for (byte[] id : routes.connections(o.app())) {
      try {
        // never waits: a full connection (ZMQ_SNDHWM) refuses the first frame; counted
        if (!data.send(id, ZMQ.SNDMORE | ZMQ.DONTWAIT)) {
          dropped.incrementAndGet();
          continue;
        }
        data.sendMore(o.topic());
        data.send(o.body());
      } catch (ZMQException e) {
        if (e.getErrorCode() != ZMQ.Error.EHOSTUNREACH.getCode()) {
          throw e;
        }
        routes.gone(id); // the connection went away
      }
    }
    published.incrementAndGet();
  }

  /** Answers the hellos waiting on the socket, at most {@link #BATCH}; never blocks. */
  private void readHellos(ZMQ.Socket data) {
    for (int n = 0; n < BATCH; n++) {
      zmq.Msg id = data.recvMsg(ZMQ.DONTWAIT);
      if (id == null) {
        return;
      }
      zmq.Msg msg = data.hasReceiveMore() ? data.recvMsg(0) : null;
      boolean more = false;
      while (data.hasReceiveMore()) {
        data.recv(0);
        more = true;
      }
      String[] app = {""};
      String reply =
          msg == null || more ? USAGE : hello(id.data(), msg.data(), userOf.apply(msg), app);
      if (reply.startsWith("ERR")) {
        refused.run();
      }
      try {
        if (data.send(id.data(), ZMQ.SNDMORE | ZMQ.DONTWAIT)) {
          data.sendMore(RemoteWire.topic(app[0]));
          data.send(RemoteWire.welcome(reply));
        }
      } catch (ZMQException e) {
        if (e.getErrorCode() != ZMQ.Error.EHOSTUNREACH.getCode()) {
          throw e;
        }
      }
    }
  }

  /**
   * The answer to {@code HELLO APP} from connection {@code id}: {@code OK} once the connection
   * receives the app's messages, or {@code ERR reason}. Sets {@code app[0]} to a valid app name.
   */
  private String hello(byte[] id, byte[] request, String user, String[] app) {
    if (request.length > RemoteAppGateway.MAX_REQUEST) {
      return "ERR a hello of " + request.length + " bytes, at most " + RemoteAppGateway.MAX_REQUEST;
    }
    String[] w = new String(request, StandardCharsets.UTF_8).strip().split(" ", 3);
    if (w.length != 2 || !w[0].equals("HELLO")) {
      return USAGE;
    }
    Optional<String> badName = RemoteWire.nameProblem(w[1]);
    if (badName.isPresent()) {
      return "ERR " + badName.get();
    }
    app[0] = w[1];
    Optional<String> no = forbidden.apply(user, w[1]);
    if (no.isEmpty()) {
      no = routes.hello(id, user, w[1], System.currentTimeMillis());
    }
    return no.map(why -> "ERR " + why).orElse("OK");
  }
}
