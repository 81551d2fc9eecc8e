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
 * <p><b>How.</b> Like Camus's ingress, {@link #split} computes a port set per message (its group);
 * then, for 64 messages × 64 ports at a time, turns message port-sets into per-port message masks
 * (a bit-matrix transpose, or a scatter of set bits when few are set), and reads runs off the
 * masks. Nothing is allocated per message; the scratch arrays grow to the largest packet seen.
 * Counters accumulate across calls. Not thread-safe: one splitter per thread.
 */
public final class PortSplitter {
  /** Below this many (message, port) pairs in a 64 × 64 block, scattering beats transposing. */
  private static final int SCATTER_LIMIT = 160;

  private final SoftwarePipeline pipeline;
  private final int[] ports;
  private final int words;
  private final int noneRow;
  private final int otherRow;

  /** Row r (a group id, then every port, then none): the dense port indexes as a bitset. */
  private final long[] rowBits;

  private final boolean[] rowEmpty;

  private final MoldPacket packet = new MoldPacket();
  private final long[] values = new long[AddOrders.FIELDS];
  private final long[] block = new long[64];
  private int[] rowOf = new int[64];
  private long[] masks = new long[0];
  private int chunks;
  private boolean control;
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
    int allRow = maxGroup + 1;
    noneRow = maxGroup + 2;
    otherRow = others == OtherMessages.ALL_PORTS ? allRow : noneRow;
    rowBits = new long[(noneRow + 1) * words];
    rowEmpty = new boolean[noneRow + 1];
    Arrays.fill(rowEmpty, true);
    for (Group g : groups) {
      for (int a : g.actions()) {
        int dense = Arrays.binarySearch(ports, a);
        if (dense >= 0) {
          rowBits[g.id() * words + (dense >>> 6)] |= 1L << dense;
          rowEmpty[g.id()] = false;
        }
      }
    }
    for (int d = 0; d < ports.length; d++) {
      rowBits[allRow * words + (d >>> 6)] |= 1L << d;
    }
    rowEmpty[allRow] = ports.length == 0;
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
    control = false;
    if (!packet.parse(buf, off, len)) {
      malformed[packet.malformation().ordinal()]++;
      return false;
    }
    packets++;
    if (packet.isHeartbeat() || packet.isEndOfSession()) {
      control = true;
      controlPackets++;
      for (int p = 0; p < ports.length; p++) {
        addRun(p, 0, 0);
        portPackets[p]++;
        portBytes[p] += MoldUdp64.HEADER_LENGTH;
      }
      return true;
    }
    int m = packet.messages();
    messages += m;
    if (rowOf.length < m) {
      rowOf = new int[Math.max(m, rowOf.length * 2)];
    }
    for (int i = 0; i < m; i++) {
      int row = classify(buf, packet.messageOffset(i), packet.messageLength(i));
      rowOf[i] = row;
      if (rowEmpty[row]) {
        droppedMessages++;
      }
    }
    transpose(m);
    collectRuns();
    return true;
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
          long x = rowBits[rowOf[first + i] * words + w];
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

  /** Reads each port's runs of consecutive kept messages off its mask, and counts them. */
  private void collectRuns() {
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
              closeRun(p, openFirst, openEnd);
            }
            openFirst = first;
            openEnd = first + len;
          }
          w = s + len == 64 ? 0 : w & (-1L << (s + len));
        }
      }
      if (openFirst >= 0) {
        closeRun(p, openFirst, openEnd);
      }
    }
  }

  private void closeRun(int p, int first, int end) {
    addRun(p, first, end - first);
    portPackets[p]++;
    portMessages[p] += end - first;
    portBytes[p] += MoldUdp64.HEADER_LENGTH + packet.blockOffset(end) - packet.blockOffset(first);
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

  /** The packets the last {@link #split} produced, in port order, then message order. */
  public int runs() {
    return runs;
  }

  /** The output port of packet {@code r}. */
  public int runPort(int r) {
    return ports[runPort[r]];
  }

  /** The index, in the split packet, of packet {@code r}'s first message. */
  public int runFirstMessage(int r) {
    return runFirst[r];
  }

  /** The messages packet {@code r} carries (0 for a heartbeat or end of session). */
  public int runMessages(int r) {
    return runCount[r];
  }

  /** The sequence number in packet {@code r}'s header: that of its first message. */
  public long runSequence(int r) {
    return packet.sequence() + runFirst[r];
  }

  /** The bytes of packet {@code r}. */
  public int runLength(int r) {
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
    if (out.length < packet.length()) {
      out = new byte[Math.max(packet.length(), out.length * 2)];
    }
    for (int r = 0; r < runs; r++) {
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
    return portMessages[index];
  }

  /** Bytes (MoldUDP64 payloads) delivered to the port at {@code index} of {@link #ports()}. */
  public long portBytes(int index) {
    return portBytes[index];
  }

  /** Packets delivered to the port at {@code index} of {@link #ports()}. */
  public long portPackets(int index) {
    return portPackets[index];
  }
}
