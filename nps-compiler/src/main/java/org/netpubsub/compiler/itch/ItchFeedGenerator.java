package org.netpubsub.compiler.itch;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.workload.Arrival;
import org.netpubsub.content.workload.HostAssignment;
import org.netpubsub.content.workload.ItchModel;
import org.netpubsub.content.workload.WorkloadSpec;

/**
 * A seeded synthetic ITCH 5.0 message stream: Add Orders whose stock, price, shares and side are
 * the events of {@link ItchModel} (so the model's filters select from them as Camus's do), mixed
 * with the order-book traffic that makes up most of a real feed — deletes, replaces, cancels,
 * executions, trades — referencing earlier orders, and framed by system events (start of messages,
 * system hours, market hours at the beginning; their ends at the end). The same variant, seed and
 * count give the same bytes.
 *
 * <p>The mix, per message between the system events: Add Order 50 % (one in ten an 'F' with an
 * MPID), delete 25 %, replace 8 %, cancel 7 %, executed 7 %, trade 3 %; a message that would
 * reference an order when none is live is an Add Order instead.
 */
public final class ItchFeedGenerator {
  /** Nanoseconds since midnight at 9:30, when the synthetic day starts. */
  static final long MARKET_OPEN_NANOS = 34_200_000_000_000L;

  private static final char[] OPENING = {'O', 'S', 'Q'};
  private static final char[] CLOSING = {'M', 'E', 'C'};
  private static final int LIVE = 4096;
  private static final int MPID = 'N' << 24 | 'P' << 16 | 'S' << 8 | 'X';

  private final long total;
  private final Iterator<Event> events;
  private final SplittableRandom rng;
  private final Map<String, Integer> locates = new HashMap<>();
  private final long[] liveRefs = new long[LIVE];
  private final int[] liveLocates = new int[LIVE];
  private final long[] liveShares = new long[LIVE];
  private final long[] livePrices = new long[LIVE];
  private final long[] liveStocks = new long[LIVE];
  private int live;
  private long produced;
  private long timestamp = MARKET_OPEN_NANOS;
  private long nextReference = 1;
  private long nextMatch = 1;
  private long addOrders;

  /**
   * {@code messages} messages whose Add Orders follow {@code variant}'s events for {@code seed}.
   */
  public ItchFeedGenerator(ItchModel.Variant variant, long seed, long messages) {
    if (messages < 0) {
      throw new IllegalArgumentException("messages must be >= 0, got " + messages);
    }
    this.total = messages;
    ItchModel model = new ItchModel(variant);
    this.events =
        model
            .generate(
                new WorkloadSpec(
                    seed,
                    0,
                    messages,
                    ItchModel.DEFAULT_HOSTS,
                    HostAssignment.RANDOM,
                    Arrival.NONE))
            .eventIterator();
    this.rng = new SplittableRandom(seed ^ 0x1_7C4_FEEDL);
  }

  public boolean hasNext() {
    return produced < total;
  }

  /** Messages produced so far. */
  public long produced() {
    return produced;
  }

  /** Add Orders among them. */
  public long addOrders() {
    return addOrders;
  }

  /**
   * Writes the next message at {@code dst[off]} (room for {@link ItchMessageTypes#MAX_LENGTH}
   * bytes) and returns its length.
   */
  public int next(byte[] dst, int off) {
    if (!hasNext()) {
      throw new NoSuchElementException("the feed has " + total + " messages");
    }
    long k = produced++;
    timestamp += 1 + rng.nextInt(2000);
    boolean framed = total >= 2L * OPENING.length + 1;
    if (framed && k < OPENING.length) {
      return ItchMessages.systemEvent(dst, off, timestamp, OPENING[(int) k]);
    }
    if (framed && k >= total - CLOSING.length) {
      return ItchMessages.systemEvent(
          dst, off, timestamp, CLOSING[(int) (k - (total - CLOSING.length))]);
    }
    int u = rng.nextInt(100);
    if (u < 50 || live == 0) {
      return addOrder(dst, off);
    }
    int i = rng.nextInt(live);
    int locate = liveLocates[i];
    long ref = liveRefs[i];
    if (u < 75) {
      forget(i);
      return ItchMessages.orderDelete(dst, off, locate, timestamp, ref);
    }
    if (u < 83) {
      long newRef = nextReference++;
      long shares = 100L * (1 + rng.nextInt(20));
      long price = Math.max(100, livePrices[i] + 100L * (rng.nextInt(21) - 10));
      liveRefs[i] = newRef;
      liveShares[i] = shares;
      livePrices[i] = price;
      return ItchMessages.orderReplace(dst, off, locate, timestamp, ref, newRef, shares, price);
    }
    long part = Math.max(1, liveShares[i] / 2);
    if (u < 90) {
      liveShares[i] -= part;
      if (liveShares[i] == 0) {
        forget(i);
      }
      return ItchMessages.orderCancel(dst, off, locate, timestamp, ref, part);
    }
    if (u < 97) {
      liveShares[i] -= part;
      if (liveShares[i] == 0) {
        forget(i);
      }
      return ItchMessages.orderExecuted(dst, off, locate, timestamp, ref, part, nextMatch++);
    }
    return ItchMessages.trade(
        dst,
        off,
        locate,
        timestamp,
        0,
        (byte) 'B',
        part,
        liveStocks[i],
        livePrices[i],
        nextMatch++);
  }

  private int addOrder(byte[] dst, int off) {
    Event e = events.next();
    String symbol = e.stringValue(0);
    int locate = locates.computeIfAbsent(symbol, s -> locates.size() + 1);
    boolean mpid = rng.nextInt(10) == 0;
    long ref = nextReference++;
    AddOrder order =
        new AddOrder(
            mpid ? ItchMessageTypes.ADD_ORDER_MPID : ItchMessageTypes.ADD_ORDER,
            locate,
            0,
            timestamp,
            ref,
            (byte) e.stringValue(3).charAt(0),
            e.intValue(2),
            AddOrder.stockValue(symbol),
            e.intValue(1),
            mpid ? MPID : 0);
    remember(ref, locate, order.shares(), order.price(), order.stock());
    addOrders++;
    return order.encode(dst, off);
  }

  private void remember(long ref, int locate, long shares, long price, long stock) {
    int i = live < LIVE ? live++ : rng.nextInt(LIVE);
    liveRefs[i] = ref;
    liveLocates[i] = locate;
    liveShares[i] = shares;
    livePrices[i] = price;
    liveStocks[i] = stock;
  }

  private void forget(int i) {
    live--;
    liveRefs[i] = liveRefs[live];
    liveLocates[i] = liveLocates[live];
    liveShares[i] = liveShares[live];
    livePrices[i] = livePrices[live];
    liveStocks[i] = liveStocks[live];
  }
}
