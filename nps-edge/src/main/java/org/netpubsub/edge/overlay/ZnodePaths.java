package org.netpubsub.edge.overlay;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.netpubsub.edge.mqtt.TopicFilters;

/**
 * The overlay's znode tree (docs/overlay.md, the paper's Figure 2) and the encoding of topic names
 * into one znode name. Pure.
 *
 * <pre>
 * /topics/&lt;enc(t)&gt;             container; data: the assigned routing broker ({@link Assignment})
 * /topics/&lt;enc(t)&gt;/pub/&lt;edge&gt;  ephemeral; data: the edge's {@link Endpoint}
 * /topics/&lt;enc(t)&gt;/sub/&lt;edge&gt;  ephemeral; data: the edge's {@link Endpoint}
 * /brokers/&lt;rb&gt;                ephemeral; data: the routing broker's {@link BrokerInfo}
 * /edges/&lt;edge&gt;               ephemeral; data: the edge's {@link Endpoint} (the directory)
 * /leader                      the LeaderLatch of the routing brokers
 * /keys/datagram               the datagram keys ({@link DatagramKeys}); only with ZooKeeper ACLs
 * /keys/revoked                the revoked edges ({@link RevokedZnode}); only with ZooKeeper ACLs
 * /keys/accepted/brokers/&lt;rb&gt;  ephemeral; data: the highest key id that routing broker accepts
 * /keys/accepted/edges/&lt;edge&gt;  ephemeral; the same for an edge broker
 * </pre>
 *
 * <p>Topic encoding: MQTT topic names contain {@code /} and any Unicode, znode names may contain
 * neither {@code /} nor control and private-use characters, and may not be {@code .} or {@code ..};
 * so every UTF-8 byte outside {@code [A-Za-z0-9_.-]} becomes {@code %XX} (upper-case hex), and a
 * name that would be {@code .} or {@code ..} has its dots encoded too. {@code a/b} is {@code
 * a%2Fb}. The mapping is injective and {@link #decodeTopic} inverts it.
 */
public final class ZnodePaths {
  public static final String TOPICS = "/topics";
  public static final String BROKERS = "/brokers";
  public static final String EDGES = "/edges";
  public static final String LEADER = "/leader";
  public static final String DATAGRAM_KEYS = "/keys/datagram";
  public static final String ACCEPTED_KEYS = "/keys/accepted";
  public static final String REVOKED_EDGES = "/keys/revoked";
  public static final String PUB = "pub";
  public static final String SUB = "sub";

  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private ZnodePaths() {}

  public static String encodeTopic(String topic) {
    if (!TopicFilters.isTopic(topic)) {
      throw new IllegalArgumentException("not an MQTT topic name: '" + topic + "'");
    }
    byte[] utf8;
    try {
      utf8 =
          StandardCharsets.UTF_8
              .newEncoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .encode(java.nio.CharBuffer.wrap(topic))
              .array();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("topic name is not valid Unicode (lone surrogate)");
    }
    if (topic.equals(".") || topic.equals("..")) {
      return topic.equals(".") ? "%2E" : "%2E%2E";
    }
    StringBuilder b = new StringBuilder();
    for (byte x : java.util.Arrays.copyOf(utf8, utf8Length(topic))) {
      int c = x & 0xff;
      if ((c >= 'A' && c <= 'Z')
          || (c >= 'a' && c <= 'z')
          || (c >= '0' && c <= '9')
          || c == '_'
          || c == '.'
          || c == '-') {
        b.append((char) c);
      } else {
        b.append('%').append(HEX[c >> 4]).append(HEX[c & 15]);
      }
    }
    return b.toString();
  }

  private static int utf8Length(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length; // valid Unicode here: exact
  }

  /** The topic a znode name encodes; {@link IllegalArgumentException} if it encodes none. */
  public static String decodeTopic(String name) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '%') {
        if (i + 2 >= name.length()) {
          throw new IllegalArgumentException("truncated escape in znode name '" + name + "'");
        }
        int hi = Character.digit(name.charAt(i + 1), 16);
        int lo = Character.digit(name.charAt(i + 2), 16);
        if (hi < 0 || lo < 0) {
          throw new IllegalArgumentException("bad escape in znode name '" + name + "'");
        }
        out.write(hi << 4 | lo);
        i += 2;
      } else if (c < 128) {
        out.write(c);
      } else {
        throw new IllegalArgumentException("non-ASCII character in znode name '" + name + "'");
      }
    }
    String topic;
    try {
      topic =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(out.toByteArray()))
              .toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException("znode name '" + name + "' is not UTF-8 when decoded");
    }
    if (!TopicFilters.isTopic(topic) || !encodeTopic(topic).equals(name)) {
      throw new IllegalArgumentException("znode name '" + name + "' is not an encoded topic");
    }
    return topic;
  }

  /** The topic of a name, or empty when the name is not an encoded topic (counted by callers). */
  public static Optional<String> topicOf(String name) {
    try {
      return Optional.of(decodeTopic(name));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  public static String topic(String topic) {
    return TOPICS + "/" + encodeTopic(topic);
  }

  public static String endpoint(String topic, Role role, String edge) {
    return topic(topic) + "/" + role.node + "/" + checkName(edge);
  }

  public static String broker(String name) {
    return BROKERS + "/" + checkName(name);
  }

  /** An edge's directory record: its endpoint once, so caches need not read every entry's. */
  public static String edge(String name) {
    return EDGES + "/" + checkName(name);
  }

  /** Edge and routing broker names: what the datagram codec accepts as an origin. */
  public static String checkName(String name) {
    if (!org.netpubsub.edge.broker.DatagramCodec.EDGE_NAME.matcher(name).matches()
        || name.equals(".")
        || name.equals("..")) {
      throw new IllegalArgumentException(
          "'" + name + "' is not a broker name (1-64 of A-Z a-z 0-9 . _ -)");
    }
    return name;
  }

  /** Publisher or subscriber entry. */
  public enum Role {
    PUBLISHER(PUB),
    SUBSCRIBER(SUB);

    final String node;

    Role(String node) {
      this.node = node;
    }

    public String node() {
      return node;
    }
  }
}
