package org.netpubsub.edge.broker;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Logger;
import org.netpubsub.edge.broker.RepairCodec.Kind;
import org.netpubsub.edge.broker.RepairCodec.Repair;
import org.netpubsub.edge.link.DatagramLink;

/**
 * Reliable mode of an agent (docs/edge.md): the I/O around {@link RetransmitBuffer} (sending side:
 * answers NACKs, sends tail heartbeats) and {@link OrderedWindows} (receiving side: NACKs gaps,
 * publishes in order). Messages released by the windows are queued while the windows' lock is held,
 * so the receiver thread and the timer never reorder them, and one publisher thread puts them into
 * the local broker: a broker slow to acknowledge never holds up the answers to other edges' NACKs.
 * One timer thread repeats NACKs, gives up what cannot be repaired, and sends heartbeats.
 */
final class ReliableDelivery implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(ReliableDelivery.class.getName());

  /** How reliable mode behaves; {@link #DEFAULTS} unless a test or experiment says otherwise. */
  record Settings(int buffer, Duration retry, int tries, Duration heartbeat, int heartbeats) {
    static final Settings DEFAULTS =
        new Settings(10_000, Duration.ofMillis(100), 20, Duration.ofMillis(50), 5);

    Settings {
      if (buffer < 1 || tries < 1 || heartbeats < 1) {
        throw new IllegalArgumentException("buffer, tries and heartbeats must be positive");
      }
      if (retry.toMillis() < 1 || heartbeat.toMillis() < 1) {
        throw new IllegalArgumentException("retry and heartbeat intervals must be at least 1 ms");
      }
    }

    Settings withBuffer(int n) {
      return new Settings(n, retry, tries, heartbeat, heartbeats);
    }
  }

  private final String edge;
  private final long session;
  private final DatagramLink link;
  private final AgentCounters counters;
  private final Consumer<EdgeMessage> publish; // the publisher thread's
  private final RetransmitBuffer buffer; // guarded by itself
  private final OrderedWindows windows; // guarded by itself; publishing happens under it
  private final ScheduledExecutorService timer;
  private final BlockingQueue<EdgeMessage> toPublish = new LinkedBlockingQueue<>(QUEUE);
  private final Thread publisher;
  private volatile boolean closed;

  /** Messages released but not yet published; when full, releasing waits (back-pressure). */
  private static final int QUEUE = 10_000;

  ReliableDelivery(
      String edge,
      long session,
      Settings s,
      DatagramLink link,
      AgentCounters counters,
      Consumer<EdgeMessage> publish) {
    this.edge = edge;
    this.session = session;
    this.link = link;
    this.counters = counters;
    this.publish = publish;
    this.publisher =
        Thread.ofPlatform().daemon().name("nps-agent-pub-ordered-" + edge).start(this::publishAll);
    this.buffer = new RetransmitBuffer(s.buffer(), s.heartbeat().toMillis(), s.heartbeats());
    // the sender's buffer may be larger than ours: gaps up to a NACK's range are worth asking
    this.windows = new OrderedWindows((int) RepairCodec.MAX_RANGE, s.retry().toMillis(), s.tries());
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("nps-agent-repair-" + edge).factory());
    long tick = Math.max(1, Math.min(s.retry().toMillis(), s.heartbeat().toMillis()) / 2);
    timer.scheduleWithFixedDelay(this::tick, tick, tick, TimeUnit.MILLISECONDS);
  }

  long session() {
    return session;
  }

  // ---- sending side ----

  /**
   * Agent-Sub is about to send {@code datagram} to {@code targets} ({@code group}: a network
   * group).
   */
  void sending(
      String topic, long seq, byte[] datagram, Set<InetSocketAddress> targets, boolean group) {
    synchronized (buffer) {
      buffer.put(topic, seq, datagram, targets, group, now());
    }
  }

  private void answer(Repair nack, InetSocketAddress asker) {
    counters.reliable("nacks_received");
    if (!nack.origin().equals(edge)) {
      counters.drop("nack_not_ours");
      return;
    }
    if (nack.session() != session) { // asked of a previous run of this agent: all gone
      reply(Kind.GONE, nack.topic(), nack.from(), nack.to(), asker);
      return;
    }
    Kind run = null;
    long runFrom = 0;
    for (long s = nack.from(); s <= nack.to(); s++) {
      RetransmitBuffer.Answer a;
      synchronized (buffer) {
        a = buffer.answer(nack.topic(), s, asker, nack.kind() == Kind.NACK_BEFORE);
      }
      Kind k = a instanceof RetransmitBuffer.Gone ? Kind.GONE : Kind.SKIP;
      if (a instanceof RetransmitBuffer.Resend r) {
        send(r.datagram(), asker, "retransmitted");
        k = null;
      }
      if (run != null && k != run) {
        reply(run, nack.topic(), runFrom, s - 1, asker);
      }
      if (k != null && k != run) {
        runFrom = s;
      }
      run = k;
    }
    if (run != null) {
      reply(run, nack.topic(), runFrom, nack.to(), asker);
    }
  }

  private void reply(Kind kind, String topic, long from, long to, InetSocketAddress asker) {
    Repair r = new Repair(kind, edge, session, topic, from, to);
    send(RepairCodec.encode(r), asker, kind == Kind.GONE ? "gone_sent" : "skips_sent");
  }

  // ---- receiving side ----

  /** A sequenced message from {@code from}: published now, or once the numbers before it are. */
  void received(EdgeMessage m, long origSession, InetSocketAddress from) {
    OrderedWindows.Step step;
    synchronized (windows) {
      step = windows.accept(m, origSession, from, now());
      if (step.duplicate()) {
        counters.drop("duplicate");
      }
      release(step.deliver());
    }
    nack(step.nacks());
  }

  /** A control datagram from {@code from}. */
  void control(Repair r, InetSocketAddress from) {
    if (r.kind() == Kind.NACK || r.kind() == Kind.NACK_BEFORE) {
      answer(r, from);
      return;
    }
    OrderedWindows.Step step;
    synchronized (windows) {
      long now = now();
      step =
          switch (r.kind()) {
            case GONE, SKIP -> {
              counters.reliable(r.kind() == Kind.GONE ? "gone_received" : "skips_received");
              yield windows.resolve(
                  r.origin(), r.session(), r.topic(), r.from(), r.to(), r.kind() == Kind.GONE, now);
            }
            case HEARTBEAT -> {
              counters.reliable("heartbeats_received");
              yield windows.heartbeat(r.origin(), r.session(), r.topic(), r.to(), from, now);
            }
            default -> OrderedWindows.Step.empty();
          };
      release(step.deliver());
    }
    nack(step.nacks());
  }

  private void nack(List<OrderedWindows.Nack> nacks) {
    for (OrderedWindows.Nack n : nacks) {
      Kind k = n.before() ? Kind.NACK_BEFORE : Kind.NACK;
      Repair r = new Repair(k, n.origin(), n.session(), n.topic(), n.from(), n.to());
      send(RepairCodec.encode(r), n.at(), "nacks_sent");
    }
  }

  /** Queues messages for the publisher thread, in order (the caller holds the windows' lock). */
  private void release(List<EdgeMessage> ms) {
    try {
      for (EdgeMessage m : ms) {
        toPublish.put(m);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // closing
    }
  }

  private void publishAll() {
    while (!closed) {
      try {
        publish.accept(toPublish.take());
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  // ---- timer ----

  private void tick() {
    try {
      long now = now();
      OrderedWindows.Step step;
      synchronized (windows) {
        step = windows.due(now);
        release(step.deliver());
      }
      nack(step.nacks());
      List<RetransmitBuffer.Heartbeat> beats;
      synchronized (buffer) {
        beats = buffer.heartbeats(now);
      }
      for (RetransmitBuffer.Heartbeat h : beats) {
        byte[] d =
            RepairCodec.encode(
                new Repair(Kind.HEARTBEAT, edge, session, h.topic(), h.seq(), h.seq()));
        for (InetSocketAddress to : h.targets()) {
          send(d, to, "heartbeats_sent");
        }
      }
    } catch (RuntimeException e) {
      LOG.warning("repair timer: " + e); // never let the timer die
    }
  }

  private void send(byte[] d, InetSocketAddress to, String counter) {
    try {
      link.send(d, 0, d.length, to);
      counters.reliable(counter);
    } catch (IOException e) {
      counters.drop("send_failed");
      LOG.fine("send to " + to + ": " + e);
    }
  }

  // ---- counters ----

  /** Numbers given up, duplicates dropped, numbers recovered; messages waiting or missing. */
  long[] windowCounts() {
    synchronized (windows) {
      return new long[] {
        windows.lost(), windows.recovered(), windows.pending() + toPublish.size(), windows.unknown()
      };
    }
  }

  int pendingHeartbeats() {
    synchronized (buffer) {
      return buffer.pendingTails();
    }
  }

  private static long now() {
    return System.nanoTime() / 1_000_000;
  }

  @Override
  public void close() {
    closed = true;
    timer.shutdownNow();
    publisher.interrupt();
  }
}
