package org.netpubsub.controller.nbi;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.controller.southbound.OpenFlowTranslator;
import org.netpubsub.network.nbi.PacketInView;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.MacAddress;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;
import org.projectfloodlight.openflow.exceptions.OFParseError;
import org.projectfloodlight.openflow.protocol.OFFlowMod;
import org.projectfloodlight.openflow.protocol.OFMessage;

/**
 * The bytes the bus and remote apps exchange over ZeroMQ (docs/northbound.md, "Remote apps over
 * ZeroMQ"). A message body starts with a kind byte; integers are big-endian and unsigned (dpid 8
 * bytes, ports and packet-in ids 4). Decoding refuses anything short, long or unknown with an
 * {@link IllegalArgumentException} saying what is wrong; it never throws anything else.
 */
final class RemoteWire {
  /** Data (ROUTER → DEALER): a packet-in: dpid, in_port, the bus's packet-in id, then the frame. */
  static final byte PACKET_IN = 1;

  /** Data: a probe the app asked for ({@code PROBE app token}): the 8-byte token. */
  static final byte PROBE = 2;

  /**
   * Data: the bus refused one of the app's answers: what (1 flow-mod, 2 packet-out), dpid, a 2-byte
   * length and the UTF-8 reason, then the flow-mod as it came (OpenFlow 1.3) or the packet-out's
   * cause packet-in id and out_port.
   */
  static final byte REFUSED = 3;

  /**
   * Data: the topology, re-announced (Algorithm 2, line 14) or changed: switch count, then per
   * switch dpid, port count, ports; link count, then per link dpid and port of both ends; host
   * count, then per host its 16-byte address, MAC (8 bytes, low 48 bits), dpid, port.
   */
  static final byte TOPOLOGY = 4;

  /**
   * Data: the answer to the connection's {@code HELLO app}, the UTF-8 text {@code OK} or {@code ERR
   * reason}; sent to that connection only.
   */
  static final byte WELCOME = 5;

  static final byte REFUSED_FLOW_MOD = 1;
  static final byte REFUSED_PACKET_OUT = 2;

  /**
   * Answers (PUSH → PULL): a packet-out: cause dpid, cause in_port, cause packet-in id, dpid,
   * out_port, then the frame.
   */
  static final byte PACKET_OUT = 1;

  /** Answers: a flow-mod: dpid, then one OpenFlow 1.3 FLOW_MOD message as on the wire. */
  static final byte FLOW_MOD = 2;

  static final int PACKET_IN_HEADER = 1 + 8 + 4 + 4;
  static final int PACKET_OUT_HEADER = 1 + 8 + 4 + 4 + 8 + 4;
  static final int FLOW_MOD_HEADER = 1 + 8;

  /** A remote app's name: what its data topic and its requests carry. */
  static final int MAX_NAME = 64;

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._:-]{1," + MAX_NAME + "}");

  /** The largest frame a packet-out may carry: OpenFlow's 64 KiB less its header and action. */
  static final int MAX_FRAME = 65_535 - 24 - 16;

  private static final int OFP_HEADER = 8;
  private static final int OF13 = 4;
  private static final int OFPT_FLOW_MOD = 14;

  private RemoteWire() {}

  /** Why {@code app} cannot be a remote app's name, or empty. */
  static Optional<String> nameProblem(String app) {
    if (app == null || !NAME.matcher(app).matches()) {
      return Optional.of(
          "an app name is 1 to "
              + MAX_NAME
              + " of A-Z a-z 0-9 . _ : - (got '"
              + (app == null ? "" : abbreviate(app))
              + "')");
    }
    return Optional.empty();
  }

  /**
   * The first frame of a data message: the app's name and a NUL (kept from when the data socket was
   * PUB and matched it by prefix, so data messages parse as before; a connection that joined
   * several apps tells them apart by it).
   */
  static byte[] topic(String app) {
    byte[] name = app.getBytes(StandardCharsets.UTF_8);
    return Arrays.copyOf(name, name.length + 1);
  }

  static byte[] packetIn(PacketInView in) {
    byte[] frame = in.data();
    return ByteBuffer.allocate(PACKET_IN_HEADER + frame.length)
        .put(PACKET_IN)
        .putLong(in.dpid())
        .putInt((int) in.inPort())
        .putInt((int) in.xid())
        .put(frame)
        .array();
  }

  static byte[] welcome(String reply) {
    byte[] text = reply.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(1 + text.length).put(WELCOME).put(text).array();
  }

  static byte[] probe(long token) {
    return ByteBuffer.allocate(9).put(PROBE).putLong(token).array();
  }

  static byte[] refusedFlowMod(long dpid, FlowMod mod, String reason) {
    byte[] of = flowModBytes(mod);
    return refused(REFUSED_FLOW_MOD, dpid, reason, of);
  }

  static byte[] refusedPacketOut(PacketInView cause, long dpid, long outPort, String reason) {
    byte[] tail = ByteBuffer.allocate(8).putInt((int) cause.xid()).putInt((int) outPort).array();
    return refused(REFUSED_PACKET_OUT, dpid, reason, tail);
  }

  private static byte[] refused(byte what, long dpid, String reason, byte[] tail) {
    byte[] why = reason.getBytes(StandardCharsets.UTF_8);
    if (why.length > 0xffff) {
      why = Arrays.copyOf(why, 0xffff);
    }
    return ByteBuffer.allocate(1 + 1 + 8 + 2 + why.length + tail.length)
        .put(REFUSED)
        .put(what)
        .putLong(dpid)
        .putShort((short) why.length)
        .put(why)
        .put(tail)
        .array();
  }

  static byte[] topology(Topology t) {
    int size = 1 + 4 + 4 + 4;
    for (long dpid : t.switches()) {
      size += 8 + 4 + 8 * t.ports(dpid).size();
    }
    size += 32 * t.links().size() + 40 * t.hosts().size();
    ByteBuffer b = ByteBuffer.allocate(size).put(TOPOLOGY).putInt(t.switches().size());
    for (long dpid : t.switches()) {
      b.putLong(dpid).putInt(t.ports(dpid).size());
      t.ports(dpid).forEach(b::putLong);
    }
    b.putInt(t.links().size());
    for (Link l : t.links()) {
      b.putLong(l.a().dpid()).putLong(l.a().port()).putLong(l.b().dpid()).putLong(l.b().port());
    }
    b.putInt(t.hosts().size());
    for (Host h : t.hosts().values()) {
      b.putLong(h.address().high()).putLong(h.address().low()).putLong(h.mac().value());
      b.putLong(h.attachment().dpid()).putLong(h.attachment().port());
    }
    return b.array();
  }

  /** What a remote app receives on its data topic. */
  sealed interface Data {}

  record PacketIn(PacketInView view) implements Data {}

  record Probe(long token) implements Data {}

  /**
   * The bus refused an answer: a flow-mod ({@code flowMod} set) or a packet-out ({@code packetInId}
   * and {@code outPort} set, {@code flowMod} null).
   */
  record Refused(long dpid, String reason, FlowMod flowMod, long packetInId, long outPort)
      implements Data {}

  record TopologyData(Topology topology) implements Data {}

  /** The bus's answer to a hello: {@code OK} or {@code ERR reason}. */
  record Welcome(String reply) implements Data {}

  static Data decodeData(byte[] body) {
    ByteBuffer b = body(body);
    byte kind = b.get();
    switch (kind) {
      case PACKET_IN -> {
        atLeast(body, PACKET_IN_HEADER, "packet-in");
        long dpid = b.getLong();
        long inPort = Integer.toUnsignedLong(b.getInt());
        long id = Integer.toUnsignedLong(b.getInt());
        return new PacketIn(
            new PacketInView(
                dpid, inPort, id, Arrays.copyOfRange(body, PACKET_IN_HEADER, body.length)));
      }
      case PROBE -> {
        exactly(body, 9, "probe");
        return new Probe(b.getLong());
      }
      case REFUSED -> {
        return decodeRefused(body, b);
      }
      case TOPOLOGY -> {
        return new TopologyData(decodeTopology(b));
      }
      case WELCOME -> {
        return new Welcome(new String(body, 1, body.length - 1, StandardCharsets.UTF_8));
      }
      default -> throw new IllegalArgumentException("unknown data kind " + kind);
    }
  }

  private static Refused decodeRefused(byte[] body, ByteBuffer b) {
    atLeast(body, 1 + 1 + 8 + 2, "refusal");
    byte what = b.get();
    long dpid = b.getLong();
    int length = b.getShort() & 0xffff;
    atLeast(body, 12 + length, "refusal");
    String reason = new String(body, 12, length, StandardCharsets.UTF_8);
    int tail = 12 + length;
    return switch (what) {
      case REFUSED_FLOW_MOD -> {
        atLeast(body, tail + OFP_HEADER, "refused flow-mod");
        yield new Refused(dpid, reason, openFlowFlowMod(body, tail), 0, 0);
      }
      case REFUSED_PACKET_OUT -> {
        exactly(body, tail + 8, "refused packet-out");
        ByteBuffer t = ByteBuffer.wrap(body, tail, 8);
        yield new Refused(
            dpid,
            reason,
            null,
            Integer.toUnsignedLong(t.getInt()),
            Integer.toUnsignedLong(t.getInt()));
      }
      default -> throw new IllegalArgumentException("unknown refusal kind " + what);
    };
  }

  /** A topology as {@link #topology} wrote it; anything inconsistent is refused. */
  private static Topology decodeTopology(ByteBuffer b) {
    try {
      Topology t = Topology.EMPTY;
      int switches = count(b, 12);
      for (int i = 0; i < switches; i++) {
        long dpid = b.getLong();
        int ports = count(b, 8);
        List<Long> numbers = new ArrayList<>();
        for (int p = 0; p < ports; p++) {
          numbers.add(b.getLong());
        }
        t = t.addSwitch(dpid, numbers);
      }
      int links = count(b, 32);
      for (int i = 0; i < links; i++) {
        t = t.addLink(Link.of(b.getLong(), b.getLong(), b.getLong(), b.getLong()));
      }
      int hosts = count(b, 40);
      for (int i = 0; i < hosts; i++) {
        Ipv6Address a = new Ipv6Address(b.getLong(), b.getLong());
        MacAddress mac = new MacAddress(b.getLong());
        t = t.addHost(new Host(a, mac, new SwitchPort(b.getLong(), b.getLong())));
      }
      if (b.hasRemaining()) {
        throw new IllegalArgumentException(b.remaining() + " bytes after the topology");
      }
      return t;
    } catch (java.nio.BufferUnderflowException e) {
      throw new IllegalArgumentException("a truncated topology");
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("an inconsistent topology: " + e.getMessage(), e);
    }
  }

  /** A count whose items of at least {@code itemBytes} each still fit in the buffer. */
  private static int count(ByteBuffer b, int itemBytes) {
    int n = b.getInt();
    if (n < 0 || (long) n * itemBytes > b.remaining()) {
      throw new IllegalArgumentException("a count of " + n + " does not fit the message");
    }
    return n;
  }

  static byte[] packetOut(PacketInView cause, long dpid, long outPort, byte[] frame) {
    if (frame.length > MAX_FRAME) {
      throw new IllegalArgumentException(
          "a packet-out frame has at most " + MAX_FRAME + " bytes: " + frame.length);
    }
    checkUint32(outPort, "out_port");
    return ByteBuffer.allocate(PACKET_OUT_HEADER + frame.length)
        .put(PACKET_OUT)
        .putLong(cause.dpid())
        .putInt((int) cause.inPort())
        .putInt((int) cause.xid())
        .putLong(dpid)
        .putInt((int) outPort)
        .put(frame)
        .array();
  }

  /** The flow-mod as an OpenFlow 1.3 FLOW_MOD (xid 0: the bus's southbound assigns its own). */
  static byte[] flowMod(long dpid, FlowMod mod) {
    byte[] of = flowModBytes(mod);
    return ByteBuffer.allocate(FLOW_MOD_HEADER + of.length)
        .put(FLOW_MOD)
        .putLong(dpid)
        .put(of)
        .array();
  }

  private static byte[] flowModBytes(FlowMod mod) {
    ByteBuf buf = Unpooled.buffer();
    OpenFlowTranslator.toOpenFlow(mod, 0).writeTo(buf);
    byte[] of = new byte[buf.readableBytes()];
    buf.readBytes(of);
    return of;
  }

  /** What a remote app sends back. */
  sealed interface Answer {}

  /** A packet-out; {@code cause} carries the packet-in's dpid, in_port and id, but no bytes. */
  record PacketOut(PacketInView cause, long dpid, long outPort, byte[] frame) implements Answer {}

  record FlowModAnswer(long dpid, FlowMod mod) implements Answer {}

  static Answer decodeAnswer(byte[] body) {
    ByteBuffer b = body(body);
    byte kind = b.get();
    switch (kind) {
      case PACKET_OUT -> {
        atLeast(body, PACKET_OUT_HEADER, "packet-out");
        long causeDpid = b.getLong();
        long causeInPort = Integer.toUnsignedLong(b.getInt());
        long causeId = Integer.toUnsignedLong(b.getInt());
        long dpid = b.getLong();
        long outPort = Integer.toUnsignedLong(b.getInt());
        int frame = body.length - PACKET_OUT_HEADER;
        if (frame > MAX_FRAME) {
          throw new IllegalArgumentException(
              "a packet-out frame has at most " + MAX_FRAME + " bytes: " + frame);
        }
        return new PacketOut(
            new PacketInView(causeDpid, causeInPort, causeId, new byte[0]),
            dpid,
            outPort,
            Arrays.copyOfRange(body, PACKET_OUT_HEADER, body.length));
      }
      case FLOW_MOD -> {
        atLeast(body, FLOW_MOD_HEADER + OFP_HEADER, "flow-mod");
        long dpid = b.getLong();
        return new FlowModAnswer(dpid, openFlowFlowMod(body, FLOW_MOD_HEADER));
      }
      default -> throw new IllegalArgumentException("unknown answer kind " + kind);
    }
  }

  /** The FLOW_MOD at body[from..]: exactly one OpenFlow 1.3 message, nothing after it. */
  private static FlowMod openFlowFlowMod(byte[] body, int from) {
    ByteBuffer h = ByteBuffer.wrap(body, from, OFP_HEADER);
    int version = h.get() & 0xff;
    int type = h.get() & 0xff;
    int length = h.getShort() & 0xffff;
    if (version != OF13 || type != OFPT_FLOW_MOD) {
      throw new IllegalArgumentException(
          "expected an OpenFlow 1.3 FLOW_MOD (version 4, type 14), got version "
              + version
              + " type "
              + type);
    }
    if (length != body.length - from) {
      throw new IllegalArgumentException(
          "the FLOW_MOD says " + length + " bytes, the answer carries " + (body.length - from));
    }
    ByteBuf buf = Unpooled.wrappedBuffer(body, from, length);
    OFMessage m;
    try {
      m = OpenFlowTranslator.OF13.getReader().readFrom(buf);
    } catch (OFParseError | RuntimeException e) {
      throw new IllegalArgumentException("unparsable FLOW_MOD: " + e.getMessage(), e);
    }
    if (!(m instanceof OFFlowMod fm) || buf.isReadable()) {
      throw new IllegalArgumentException("unparsable FLOW_MOD");
    }
    try {
      return OpenFlowTranslator.fromOpenFlow(fm);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("unsupported FLOW_MOD: " + e.getMessage(), e);
    }
  }

  private static ByteBuffer body(byte[] body) {
    if (body == null || body.length == 0) {
      throw new IllegalArgumentException("empty message body");
    }
    return ByteBuffer.wrap(body);
  }

  private static void atLeast(byte[] body, int n, String what) {
    if (body.length < n) {
      throw new IllegalArgumentException(
          "a " + what + " has at least " + n + " bytes: " + body.length);
    }
  }

  private static void exactly(byte[] body, int n, String what) {
    if (body.length != n) {
      throw new IllegalArgumentException("a " + what + " has " + n + " bytes: " + body.length);
    }
  }

  private static void checkUint32(long v, String what) {
    if (v < 0 || v > 0xffffffffL) {
      throw new IllegalArgumentException(what + " out of range: " + v);
    }
  }

  static String abbreviate(String s) {
    return s.length() <= 80 ? s : s.substring(0, 80) + "...";
  }
}
