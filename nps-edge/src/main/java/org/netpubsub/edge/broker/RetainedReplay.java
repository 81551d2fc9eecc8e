package org.netpubsub.edge.broker;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import org.netpubsub.edge.broker.RepairCodec.Kind;
import org.netpubsub.edge.broker.RepairCodec.Repair;

/**
 * Retained messages for an edge that registers after they were published (docs/edge.md). Every
 * edge's broker holds every retained message (retained publishes go to every edge), so a
 * registering edge asks one existing edge's agent ({@code REPLAY}); that agent reads its broker's
 * retained store ({@link Store}) and sends each message as a replay datagram (version 2, flag
 * replay, the request's id as session), then {@code REPLAY_END} with the count. The asker publishes
 * them retained, except what its own broker already holds (an agent restart replays nothing) and
 * topics where a live retained message arrived or was published locally since it registered (newer
 * than any replay); it asks again when the end or any message was lost, and the next edge when one
 * does not answer. Threads: one scheduler (asking, retrying, and reading the store on request);
 * datagrams arrive on the receiver thread.
 */
final class RetainedReplay implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(RetainedReplay.class.getName());
  private static final long RETRY_MILLIS = 1000;
  private static final int TRIES_PER_EDGE = 3;
  private static final int ROUNDS = 5; // complete replays asked for before giving up

  /** The local broker's retained messages (empty for brokers without them, e.g. RabbitMQ). */
  interface Store {
    List<EdgeMessage> retained() throws Exception;
  }

  /** Sends one datagram; false if it could not. */
  interface Sender {
    boolean send(byte[] datagram, InetSocketAddress to);
  }

  private final String edge;
  private final CoordinatorClient coordinator;
  private final Store store;
  private final Sender sender;
  private final AgentCounters counters;
  private final ScheduledExecutorService worker;

  // the asking side, guarded by this
  private final Set<String> live = new HashSet<>(); // topics with a newer retained message
  private final Map<String, byte[]> replayed = new HashMap<>(); // what replays already published
  private List<CoordinatorClient.Peer> peers = List.of();
  private int peer;
  private int tries;
  private int rounds;
  private long nonce;
  private long received; // replay messages of this nonce
  private ScheduledFuture<?> retry;

  RetainedReplay(
      String edge,
      CoordinatorClient coordinator,
      Store store,
      Sender sender,
      AgentCounters counters) {
    this.edge = edge;
    this.coordinator = coordinator;
    this.store = store;
    this.sender = sender;
    this.counters = counters;
    this.worker =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("nps-agent-replay-" + edge).factory());
  }

  // ---- asking (after each registration) ----

  /** The edge (re)registered: ask an existing edge for the retained messages. */
  synchronized void registered() {
    live.clear();
    rounds = 0;
    worker.execute(this::start);
  }

  private synchronized void start() {
    if (retry != null) {
      retry.cancel(false); // an earlier registration's request: this one replaces it
      retry = null;
    }
    replayed.clear();
    try {
      for (EdgeMessage m : store.retained()) {
        replayed.put(m.topic(), m.payload()); // what this broker holds needs no replay
      }
    } catch (Exception e) {
      LOG.warning("retained replay: cannot read the local broker's retained messages: " + e);
    }
    try {
      peers =
          coordinator.edges().stream()
              .filter(p -> !p.name().equals(edge))
              .sorted((a, b) -> a.name().compareTo(b.name()))
              .toList();
    } catch (CoordinatorClient.CoordinatorException e) {
      LOG.warning("retained replay: cannot list edges: " + e.getMessage());
      peers = List.of();
    }
    if (peers.isEmpty()) {
      counters.reliable("replay_none"); // the first edge: nothing to replay
      return;
    }
    peer = 0;
    tries = 0;
    ask();
  }

  /** Sends the request (a new nonce each time) and schedules the retry. */
  private synchronized void ask() {
    if (tries >= TRIES_PER_EDGE) {
      peer++;
      tries = 0;
    }
    if (peer >= peers.size() || rounds >= ROUNDS) {
      counters.reliable("replay_failed");
      LOG.warning("retained replay: no edge answered completely; retained messages may be missing");
      return;
    }
    tries++;
    if (retry != null) {
      retry.cancel(false);
    }
    do {
      nonce = ThreadLocalRandom.current().nextLong();
    } while (nonce == 0);
    received = 0;
    sender.send(
        RepairCodec.encode(new Repair(Kind.REPLAY, edge, nonce, "", 0, 0)),
        peers.get(peer).address());
    counters.reliable("replay_requests_sent");
    retry = worker.schedule(this::ask, RETRY_MILLIS, TimeUnit.MILLISECONDS);
  }

  /** A live retained message on {@code topic} arrived or was published here: replays are older. */
  synchronized void live(String topic) {
    live.add(topic);
  }

  /**
   * A replayed message; returns whether to publish it (not if a newer one is here, nor if an
   * earlier replay already published the same).
   */
  synchronized boolean replayed(EdgeMessage m, long replayNonce) {
    if (replayNonce == nonce) {
      received++;
    }
    counters.reliable("replayed_received");
    if (live.contains(m.topic())) {
      counters.reliable("replay_stale");
      return false;
    }
    byte[] before = replayed.put(m.topic(), m.payload());
    if (before != null && Arrays.equals(before, m.payload())) {
      counters.reliable("replay_held"); // this broker has it already (or an earlier replay put it)
      return false;
    }
    return true;
  }

  /** The end of a replay: complete, or ask again. */
  synchronized void ended(Repair end) {
    if (end.session() != nonce || retry == null) {
      return; // an old request's answer
    }
    retry.cancel(false);
    retry = null;
    if (received == end.to()) {
      counters.reliable("replay_complete");
      return;
    }
    counters.reliable("replay_incomplete"); // some replay datagrams were lost: once more
    rounds++;
    tries = 0;
    worker.execute(this::ask);
  }

  // ---- answering ----

  /** Another edge asks for this broker's retained messages. */
  void requested(Repair r, InetSocketAddress from) {
    worker.execute(() -> answer(r, from));
  }

  private void answer(Repair r, InetSocketAddress from) {
    counters.reliable("replays_answered");
    List<EdgeMessage> retained;
    try {
      retained = store.retained();
    } catch (Exception e) {
      LOG.warning("retained replay for " + r.origin() + ": " + e);
      return; // it asks again, then another edge
    }
    List<byte[]> datagrams = new ArrayList<>();
    long seq = 0;
    for (EdgeMessage m : retained) {
      EdgeMessage out = new EdgeMessage(edge, seq + 1, m.topic(), m.payload(), m.qos(), true);
      try {
        datagrams.add(DatagramCodec.encode(out, r.session(), true));
        seq++;
      } catch (DatagramException e) {
        counters.drop(e.reason());
      }
    }
    for (byte[] d : datagrams) {
      if (sender.send(d, from)) {
        counters.reliable("replayed_sent");
      }
    }
    Repair end = new Repair(Kind.REPLAY_END, edge, r.session(), "", seq, seq);
    sender.send(RepairCodec.encode(end), from);
  }

  @Override
  public void close() {
    worker.shutdownNow();
    try {
      worker.awaitTermination(2, TimeUnit.SECONDS); // a read in progress ends before a restart
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
