package org.netpubsub.edge.overlay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Set;
import org.netpubsub.content.address.Ipv6Address;

/**
 * The JSON in the overlay's znodes. Strict: unknown fields, missing fields and addresses that are
 * not IP literals are refused with {@link IllegalArgumentException} (a reader counts and ignores
 * such a node). Addresses are {@code "host:port"}, IPv6 in brackets. Pure.
 */
public final class ZnodeData {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ZnodeData() {}

  public static byte[] endpoint(Endpoint e) {
    ObjectNode o = JSON.createObjectNode();
    o.put("site", e.site());
    o.put("address", address(e.address()));
    e.deadlineMillis().ifPresent(d -> o.put("deadline_ms", d));
    if (e.ownKey()) {
      o.put("own_key", true); // only then: an entry of the default kind stays as it always was
    }
    return bytes(o);
  }

  /**
   * An endpoint; {@code deadline_ms} is optional (absent: none; older edges never write it), and so
   * is {@code own_key} (absent: false).
   */
  public static Endpoint endpoint(byte[] data) {
    JsonNode o = parse(data, Set.of("site", "address", "deadline_ms", "own_key"));
    JsonNode d = o.get("deadline_ms");
    if (d != null && (!d.canConvertToLong() || !d.isIntegralNumber() || d.asLong() <= 0)) {
      throw new IllegalArgumentException("'deadline_ms' must be a whole number > 0");
    }
    JsonNode own = o.get("own_key");
    if (own != null && !own.isBoolean()) {
      throw new IllegalArgumentException("'own_key' must be true or false");
    }
    return new Endpoint(
        text(o, "site"),
        address(text(o, "address")),
        d == null ? java.util.Optional.empty() : java.util.Optional.of(d.asLong()),
        own != null && own.asBoolean());
  }

  public static byte[] assignment(Assignment a) {
    ObjectNode o = JSON.createObjectNode();
    o.put("broker", a.broker());
    o.put("address", address(a.address()));
    return bytes(o);
  }

  public static Assignment assignment(byte[] data) {
    JsonNode o = parse(data, Set.of("broker", "address"));
    return new Assignment(text(o, "broker"), address(text(o, "address")));
  }

  public static byte[] broker(BrokerInfo b) {
    ObjectNode o = JSON.createObjectNode();
    o.put("address", address(b.address()));
    o.put("rate", b.rate());
    return bytes(o);
  }

  public static BrokerInfo broker(byte[] data) {
    JsonNode o = parse(data, Set.of("address", "rate"));
    JsonNode rate = o.get("rate");
    if (rate == null || !rate.isNumber()) {
      throw new IllegalArgumentException("'rate' must be a number");
    }
    return new BrokerInfo(address(text(o, "address")), rate.asDouble());
  }

  /**
   * {@code host:port} with IPv6 hosts in brackets, in RFC 5952 form ({@link Ipv6Address}); {@link
   * #address(String)} still reads the JDK's longer form, which older edges wrote into znodes.
   */
  public static String address(InetSocketAddress a) {
    String host =
        a.getAddress() != null ? Ipv6Address.formatWithZone(a.getAddress()) : a.getHostString();
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort();
  }

  /** Parses {@code host:port} where host is an IP literal (never a name: no DNS lookups). */
  public static InetSocketAddress address(String text) {
    int colon = text.lastIndexOf(':');
    if (colon <= 0) {
      throw new IllegalArgumentException("'" + text + "' is not ADDRESS:PORT");
    }
    String host = text.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    } else if (host.contains(":")) {
      throw new IllegalArgumentException("'" + text + "': an IPv6 address needs [brackets]");
    }
    int port;
    try {
      port = Integer.parseInt(text.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + text + "': bad port");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("'" + text + "': port out of range");
    }
    if (!host.matches("[0-9.]+|[0-9A-Fa-f:.]+(%[A-Za-z0-9]+)?")) {
      throw new IllegalArgumentException("'" + text + "': the host must be an IP address");
    }
    try {
      return new InetSocketAddress(java.net.InetAddress.getByName(host), port);
    } catch (java.net.UnknownHostException e) {
      throw new IllegalArgumentException("'" + text + "': the host must be an IP address");
    }
  }

  private static JsonNode parse(byte[] data, Set<String> fields) {
    if (data == null || data.length == 0) {
      throw new IllegalArgumentException("empty znode data");
    }
    JsonNode o;
    try {
      o = JSON.readTree(data);
    } catch (IOException e) {
      throw new IllegalArgumentException("znode data is not JSON: " + e.getMessage());
    }
    if (o == null || !o.isObject()) {
      throw new IllegalArgumentException("znode data is not a JSON object");
    }
    for (Iterator<String> it = o.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!fields.contains(f)) {
        throw new IllegalArgumentException("unknown field '" + f + "'");
      }
    }
    return o;
  }

  private static String text(JsonNode o, String field) {
    JsonNode v = o.get(field);
    if (v == null || !v.isTextual()) {
      throw new IllegalArgumentException("'" + field + "' must be a string");
    }
    return v.asText();
  }

  private static byte[] bytes(JsonNode o) {
    return o.toString().getBytes(StandardCharsets.UTF_8);
  }
}
