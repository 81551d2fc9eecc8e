package org.netpubsub.compiler.itch;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;
import org.netpubsub.compiler.pipeline.Group;
import org.netpubsub.compiler.pipeline.Pipeline;
import org.netpubsub.compiler.rules.Rule;
import org.netpubsub.compiler.spec.BuiltinSpecs;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.compiler.target.software.SoftwarePipeline;

/**
 * Per-port message subsets of MoldUDP64 packets (Camus §6): each Add Order runs through the
 * compiled ITCH tables, and each output port gets packets that carry only the messages its filters
 * want.
 *
 * <p><b>Numbering.</b> MoldUDP64 numbers a packet's messages consecutively from its header's
 * sequence number, so removing a message would renumber those behind it. A port therefore gets one
 * packet per <em>run</em> — a maximal stretch of consecutive messages of the packet that it keeps —
 * whose header carries the original sequence number of the run's first message. Every delivered
 * message keeps its sequence number; the gaps a port sees are the messages it does not want (its
 * receiver must not request them again). Runs are sub-ranges of the original packet, so none is
 * larger than it (the MTU holds) and their blocks are copied unchanged. Heartbeats and ends of
 * session go to every port, unchanged.
 *
 * <p><b>Other messages</b> go to no port or to every port ({@link OtherMessages}); malformed
 * messages ({@link Malformation.Scope#MESSAGE}) to none, so a run never spans one. A packet with
 * malformed framing is dropped whole.
 *
 * <p><b>How.</b> Like Camus's ingress, {@link #split} gives each message a port set — its group's
 * row, a bitset of ports — and counts per row (messages, bytes, and messages in the same row as
 * their predecessor); a port's messages and bytes are sums over the rows that hold it, and its
 * packets are its messages less those that continue its run, which are counted per message with
 * byte-lane adders over the ports that both neighbours keep. Like Camus's egress, a port's packets
 * are cut only when asked for ({@link #runs}, {@link #emit}): then, for 64 messages × 64 ports at a
 * time, the message port sets become per-port message masks (a bit-matrix transpose, or a scatter
 * of set bits when few are set), and runs are read off the masks. Nothing is allocated per message;
 * the scratch arrays grow to the largest packet seen. Counters accumulate across calls. Not
 * thread-safe: one splitter per thread.
 */
public final class PortSplitter {
  /** Below this many (message, port) pairs in a 64 × 64 block, scattering beats transposing. */
  private static final int SCATTER_LIMIT = 160;

  /** One bit in each byte: byte j of {@code (x >>> k) & LANES} is bit 8 j + k of x. */
  private static final long LANES = 0x0101_0101_0101_0101L;

  /** Messages per stretch of byte-lane counting: a byte counts at most 255. */
  private static final int LANE_MAX = 255;

  private final SoftwarePipeline pipeline;
  private final int[] ports;
  private final int words;
  private final int allRow;
  private final int noneRow;
  private final int otherRow;

  /**
   * One record per row (group ids, then every port, then none), kept together so that a message
   * touches one place: the ports as a bitset ({@link #words} longs), then the messages, block bytes
   * and repeats (messages whose predecessor had the same row) counted for it.
   */
  private final long[] rows;

  private final int stride;
  private final boolean[] rowEmpty;

  /** Per port: messages that continue its run from a predecessor in a different row. */
  private final long[] continuing;

  private boolean statsStale = true;

  private final MoldPacket packet = new MoldPacket();
  private final long[] values = new long[AddOrders.FIELDS];
  private final long[] block = new long[64];
  private int[] rowOf = new int[64];
  private long[] masks = new long[0];
  private int chunks;
  private int packetMessages;
  private boolean control;
  private boolean runsReady = true;
  private int[] runPort = new int[256];
  private int[] runFirst = new int[256];
  private int[] runCount = new int[256];
  private int runs;
  private byte[] out = new byte[2048];

  private long packets;
  private long controlPackets;
  private long messages;
  private long addOrders;
  private long otherMessages;
  private long unknownMessages;
  private long droppedMessages;
  private final long[] malformed = new long[Malformation.values().length];
  private final long[] portMessages;
  private final long[] portBytes;
  private final long[] portPackets;

  /**
   * A splitter for tables compiled from the ITCH spec ({@link BuiltinSpecs#itch()}'s fields, in its
   * order).
   */
  public static PortSplitter of(Pipeline tables, OtherMessages others) {
    checkSpec(tables.spec());
    return new PortSplitter(SoftwarePipeline.of(tables), tables.groups(), others);
  }

  /**
   * A splitter over a software pipeline already built from tables whose groups are {@code groups}.
   * Actions above {@link Rule#MAX_PORT} (conditional actions) are not ports and are ignored.
   */
  public PortSplitter(SoftwarePipeline pipeline, Collection<Group> groups, OtherMessages others) {
    this.pipeline = pipeline;
    TreeSet<Integer> all = new TreeSet<>();
    int maxGroup = -1;
    for (Group g : groups) {
      maxGroup = Math.max(maxGroup, g.id());
      for (int a : g.actions()) {
        if (a >= 0 && a <= Rule.MAX_PORT) {
          all.add(a);
        }
      }
    }
    ports = all.stream().mapToInt(Integer::intValue).toArray();
    words = (ports.length + 63) >>> 6;
    stride = words + 3;
    allRow = maxGroup + 1;
    noneRow = allRow + 1;
    otherRow = others == OtherMessages.ALL_PORTS ? allRow : noneRow;
    rows = new long[(noneRow + 1) * stride];
    rowEmpty = new boolean[noneRow + 1];
    Arrays.fill(rowEmpty, true);
    for (Group g : groups) {
      for (int a : g.actions()) {
        int dense = Arrays.binarySearch(ports, a);
        if (dense >= 0) {
          rows[g.id() * stride + (dense >>> 6)] |= 1L << dense;
          rowEmpty[g.id()] = false;
        }
      }
    }
    for (int d = 0; d < ports.length; d++) {
      rows[allRow * stride + (d >>> 6)] |= 1L << d;
    }
    rowEmpty[allRow] = ports.length == 0;
    continuing = new long[ports.length];
    portMessages = new long[ports.length];
    portBytes = new long[ports.length];
    portPackets = new long[ports.length];
  }

  private static void checkSpec(MessageSpec spec) {
    List<String> want = BuiltinSpecs.itch().fields().stream().map(f -> f.name()).toList();
    List<String> got = spec.fields().stream().map(f -> f.name()).toList();
    if (!want.equals(got)) {
      throw new IllegalArgumentException(
          "ITCH packets need tables compiled with the itch spec " + want + ", not " + spec);
    }
  }

  /**
   * Splits the MoldUDP64 packet in {@code buf[off, off + len)}: afterwards {@link #runs()} describe
   * the packet each port gets, and {@link #emit} writes them. False, with no runs, when the
   * packet's framing is malformed (counted by reason).
   */
  public boolean split(byte[] buf, int off, int len) {
    runs = 0;
    runsReady = true;
    control = false;
    packetMessages = 0;
    if (!packet.parse(buf, off, len)) {
      malformed[packet.malformation().ordinal()]++;
      return false;
    }
    packets++;
    statsStale = true;
    if (packet.isHeartbeat() || packet.isEndOfSession()) {
      control = true;
      controlPackets++;
      for (int p = 0; p < ports.length; p++) {
        addRun(p, 0, 0);
      }
      return true;
    }
    int m = packet.messages();
    messages += m;
    if (rowOf.length < m) {
      rowOf = new int[Math.max(m, rowOf.length * 2)];
    }
    long[] r = rows;
    int previous = noneRow;
    for (int i = 0; i < m; i++) {
      int start = packet.blockOffset(i);
      int end = packet.blockOffset(i + 1);
      int row = classify(buf, start + 2, end - start - 2);
      rowOf[i] = row;
      if (rowEmpty[row]) {
        droppedMessages++;
      } else {
        int at = row * stride + words;
        r[at]++;
        r[at + 1] += end - start;
        if (row == previous) {
          r[at + 2]++;
        }
      }
      previous = row;
    }
    countContinuing(m);
    packetMessages = m;
    runsReady = false;
    return true;
  }

  /**
   * Counts, per port, the messages of this packet that continue its run from a predecessor in
   * another row: for each word of ports, the ports both neighbours keep are added in byte lanes —
   * eight registers, byte j of lane k counting port 64 w + 8 j + k, eight shift-mask-adds per
   * message and no carry chain — and spilled to {@link #continuing} every {@link #LANE_MAX}
   * messages. Dropped and malformed messages have no ports, so they end runs by themselves.
   */
  private void countContinuing(int m) {
    long[] r = rows;
    int[] of = rowOf;
    for (int w = 0; w < words; w++) {
      for (int i = 1; i < m; ) {
        int end = Math.min(m, i + LANE_MAX);
        long a0 = 0;
        long a1 = 0;
        long a2 = 0;
        long a3 = 0;
        long a4 = 0;
        long a5 = 0;
        long a6 = 0;
        long a7 = 0;
        for (; i < end; i++) {
          int row = of[i];
          int prev = of[i - 1];
          if (row == prev) {
            continue; // a repeat, counted per row
          }
          long x = r[row * stride + w] & r[prev * stride + w];
          a0 += x & LANES;
          a1 += (x >>> 1) & LANES;
          a2 += (x >>> 2) & LANES;
          a3 += (x >>> 3) & LANES;
          a4 += (x >>> 4) & LANES;
          a5 += (x >>> 5) & LANES;
          a6 += (x >>> 6) & LANES;
          a7 += (x >>> 7) & LANES;
        }
        int base = w << 6;
        spill(base, a0);
        spill(base + 1, a1);
        spill(base + 2, a2);
        spill(base + 3, a3);
        spill(base + 4, a4);
        spill(base + 5, a5);
        spill(base + 6, a6);
        spill(base + 7, a7);
      }
    }
  }

  /** Adds byte j of {@code lanes} to the port at {@code first + 8 j}. */
  private void spill(int first, long lanes) {
    for (int p = first; lanes != 0; p += 8, lanes >>>= 8) {
      continuing[p] += lanes & 0xff;
    }
  }

  /**
   * Per port, from the per-row counters: messages and block bytes are sums over the rows that hold
   * the port; its packets are its messages less those that continue a run (repeats of a row and the
   * byte-lane counts), plus one per control packet; bytes add a header per packet. Costs rows ×
   * ports, so it runs when counts are read.
   */
  private void refreshStats() {
    if (!statsStale) {
      return;
    }
    statsStale = false;
    long[] continuing = this.continuing.clone();
    Arrays.fill(portMessages, 0L);
    Arrays.fill(portBytes, 0L);
    for (int row = 0; row <= allRow; row++) {
      int at = row * stride;
      long n = rows[at + words];
      if (n == 0) {
        continue;
      }
      for (int w = 0; w < words; w++) {
        for (long x = rows[at + w]; x != 0; x &= x - 1) {
          int p = (w << 6) + Long.numberOfTrailingZeros(x);
          portMessages[p] += n;
          portBytes[p] += rows[at + words + 1];
          continuing[p] += rows[at + words + 2];
        }
      }
    }
    for (int p = 0; p < ports.length; p++) {
      portPackets[p] = portMessages[p] - continuing[p] + controlPackets;
      portBytes[p] += (long) MoldUdp64.HEADER_LENGTH * portPackets[p];
    }
  }

  /** The row of a message: its group, every port, or none. */
  private int classify(byte[] buf, int off, int len) {
    if (len == 0) {
      malformed[Malformation.EMPTY_MESSAGE.ordinal()]++;
      return noneRow;
    }
    byte type = buf[off];
    if (type == ItchMessageTypes.ADD_ORDER || type == ItchMessageTypes.ADD_ORDER_MPID) {
      Malformation bad = AddOrders.decode(buf, off, len, values);
      if (bad != null) {
        malformed[bad.ordinal()]++;
        return noneRow;
      }
      addOrders++;
      int g = pipeline.group(values);
      return g < 0 ? noneRow : g;
    }
    int expected = ItchMessageTypes.length(type);
    if (expected < 0) {
      unknownMessages++;
      return otherRow;
    }
    if (expected != len) {
      malformed[Malformation.BAD_LENGTH.ordinal()]++;
      return noneRow;
    }
    otherMessages++;
    return otherRow;
  }

  /** Fills masks[p * chunks + c]: bit i set when port p keeps message 64 c + i. */
  private void transpose(int m) {
    chunks = (m + 63) >>> 6;
    int need = ports.length * chunks;
    if (masks.length < need) {
      masks = new long[Math.max(need, masks.length * 2)];
    }
    long[] b = block;
    for (int c = 0; c < chunks; c++) {
      int first = c << 6;
      int n = Math.min(64, m - first);
      for (int w = 0; w < words; w++) {
        int bits = 0;
        for (int i = 0; i < n; i++) {
          long x = rows[rowOf[first + i] * stride + w];
          b[i] = x;
          bits += Long.bitCount(x);
        }
        int portBase = w << 6;
        int portsHere = Math.min(64, ports.length - portBase);
        if (bits < SCATTER_LIMIT) {
          for (int j = 0; j < portsHere; j++) {
            masks[(portBase + j) * chunks + c] = 0;
          }
          for (int i = 0; i < n; i++) {
            for (long x = b[i]; x != 0; x &= x - 1) {
              masks[(portBase + Long.numberOfTrailingZeros(x)) * chunks + c] |= 1L << i;
            }
          }
        } else {
          Arrays.fill(b, n, 64, 0L);
          BitMatrix.transpose(b);
          for (int j = 0; j < portsHere; j++) {
            masks[(portBase + j) * chunks + c] = b[j];
          }
        }
      }
    }
  }

  /** Reads each port's runs of consecutive kept messages off its mask (when first asked for). */
  private void collectRuns() {
    runsReady = true;
    transpose(packetMessages);
    for (int p = 0; p < ports.length; p++) {
      int base = p * chunks;
      int openFirst = -1;
      int openEnd = -1;
      for (int c = 0; c < chunks; c++) {
        long w = masks[base + c];
        while (w != 0) {
          int s = Long.numberOfTrailingZeros(w);
          int len = Long.numberOfTrailingZeros(~(w >>> s));
          int first = (c << 6) + s;
          if (openEnd == first) {
            openEnd = first + len;
          } else {
            if (openFirst >= 0) {
              addRun(p, openFirst, openEnd - openFirst);
            }
            openFirst = first;
            openEnd = first + len;
          }
          w = s + len == 64 ? 0 : w & (-1L << (s + len));
        }
      }
      if (openFirst >= 0) {
        addRun(p, openFirst, openEnd - openFirst);
      }
    }
  }

  private void addRun(int p, int first, int count) {
    if (runs == runPort.length) {
      runPort = Arrays.copyOf(runPort, runs * 2);
      runFirst = Arrays.copyOf(runFirst, runs * 2);
      runCount = Arrays.copyOf(runCount, runs * 2);
    }
    runPort[runs] = p;
    runFirst[runs] = first;
    runCount[runs] = count;
    runs++;
  }

  /**
   * The packets the last {@link #split} produced, in port order, then message order (enumerated
   * from the per-port masks on the first call after a split; {@code run*} take indexes below it).
   */
  public int runs() {
    if (!runsReady) {
      collectRuns();
    }
    return runs;
  }

  private void checkRun(int r) {
    if (r < 0 || r >= runs()) {
      throw new IndexOutOfBoundsException("packet " + r + " of " + runs);
    }
  }

  /** The output port of packet {@code r}. */
  public int runPort(int r) {
    checkRun(r);
    return ports[runPort[r]];
  }

  /** The index, in the split packet, of packet {@code r}'s first message. */
  public int runFirstMessage(int r) {
    checkRun(r);
    return runFirst[r];
  }

  /** The messages packet {@code r} carries (0 for a heartbeat or end of session). */
  public int runMessages(int r) {
    checkRun(r);
    return runCount[r];
  }

  /** The sequence number in packet {@code r}'s header: that of its first message. */
  public long runSequence(int r) {
    checkRun(r);
    return packet.sequence() + runFirst[r];
  }

  /** The bytes of packet {@code r}. */
  public int runLength(int r) {
    checkRun(r);
    if (control) {
      return MoldUdp64.HEADER_LENGTH;
    }
    int first = runFirst[r];
    return MoldUdp64.HEADER_LENGTH
        + packet.blockOffset(first + runCount[r])
        - packet.blockOffset(first);
  }

  /** Writes packet {@code r} at {@code dst[off]}; returns its length ({@link #runLength}). */
  public int writeRun(int r, byte[] dst, int off) {
    checkRun(r);
    byte[] src = packet.buffer();
    System.arraycopy(src, packet.offset(), dst, off, MoldUdp64.SESSION_LENGTH);
    if (control) {
      BigEndian.put64(dst, off + MoldUdp64.SEQUENCE_OFFSET, packet.sequence());
      BigEndian.put16(dst, off + MoldUdp64.COUNT_OFFSET, packet.count());
      return MoldUdp64.HEADER_LENGTH;
    }
    int first = runFirst[r];
    int from = packet.blockOffset(first);
    int to = packet.blockOffset(first + runCount[r]);
    BigEndian.put64(dst, off + MoldUdp64.SEQUENCE_OFFSET, packet.sequence() + first);
    BigEndian.put16(dst, off + MoldUdp64.COUNT_OFFSET, runCount[r]);
    System.arraycopy(src, from, dst, off + MoldUdp64.HEADER_LENGTH, to - from);
    return MoldUdp64.HEADER_LENGTH + to - from;
  }

  /** Writes every packet of the last split to {@code sink}, one call per packet. */
  public void emit(PacketSink sink) {
    int n = runs();
    if (out.length < packet.length()) {
      out = new byte[Math.max(packet.length(), out.length * 2)];
    }
    for (int r = 0; r < n; r++) {
      int len = writeRun(r, out, 0);
      sink.packet(ports[runPort[r]], out, 0, len);
    }
  }

  /** The output ports, ascending: every port some rule forwards to. */
  public int[] ports() {
    return ports.clone();
  }

  /** Well-formed packets split, heartbeats and ends of session included. */
  public long packets() {
    return packets;
  }

  /** Heartbeats and ends of session among {@link #packets()}. */
  public long controlPackets() {
    return controlPackets;
  }

  /** Messages framed in well-formed packets (malformed messages included). */
  public long messages() {
    return messages;
  }

  /** Well-formed Add Orders run through the tables. */
  public long addOrders() {
    return addOrders;
  }

  /** Well-formed messages of other ITCH 5.0 types. */
  public long otherMessages() {
    return otherMessages;
  }

  /** Messages of a type ITCH 5.0 does not define, skipped by their length. */
  public long unknownMessages() {
    return unknownMessages;
  }

  /** Messages that reached no port: no filter wants them, or their policy drops them. */
  public long droppedMessages() {
    return droppedMessages;
  }

  /** Packets (packet scope) or messages (message scope) dropped as malformed for {@code m}. */
  public long malformed(Malformation m) {
    return malformed[m.ordinal()];
  }

  /** Messages delivered to the port at {@code index} of {@link #ports()}, over all packets. */
  public long portMessages(int index) {
    refreshStats();
    return portMessages[index];
  }

  /** Bytes (MoldUDP64 payloads) delivered to the port at {@code index} of {@link #ports()}. */
  public long portBytes(int index) {
    refreshStats();
    return portBytes[index];
  }

  /** Packets delivered to the port at {@code index} of {@link #ports()}. */
  public long portPackets(int index) {
    refreshStats();
    return portPackets[index];
  }
}
