package org.netpubsub.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.event.DecodeException;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.event.EventCodec;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.filter.Filter;
import org.netpubsub.content.filter.FilterEvaluator;
import org.netpubsub.content.filter.FilterParser;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.content.index.FalsePositiveSample;
import org.netpubsub.content.index.LayoutDesigner;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.schema.Attribute;
import org.netpubsub.content.schema.IntAttribute;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.SchemaLoader;
import org.netpubsub.content.schema.SchemaWriter;
import org.netpubsub.content.schema.StringAttribute;
import org.netpubsub.content.schema.StringCoding;
import org.netpubsub.network.camus.openflow.QueryAddressLayout;

/**
 * The Java side of the Python client's differential tests (clients/python/tests): reads one JSON
 * request per line on stdin and answers one JSON line each, using the library's own codec, index,
 * address layouts, parser and evaluator. Not a user command: {@code java -cp nps.jar
 * org.netpubsub.cli.ClientOracle}.
 *
 * <p>Every request has {@code op} and {@code schema} (schema YAML, parsed once per distinct text):
 * {@code encode} (values, payload base64, publisher, sequence as unsigned decimal strings,
 * timestamp) → hex or error; {@code decode} (hex) → the event or the reason and offset; {@code
 * address} (values, length or the default, dimensions, routing, pubsub) → dz and address (and with
 * pubsub what the controller publishes for that index); {@code learn} (events, filters, length) → a
 * learned layout as published and the events' dz under it; {@code parse} (filter) → ok or reason,
 * line, column; {@code match} (filter, events: lists of values) → matches; {@code bench} → the Java
 * client's publish and receive rates (see {@link #bench}); {@code topic_coding} (no schema: {@code
 * coding} as published, names, filters, prefixes) → the offsets and ranges.
 */
public final class ClientOracle {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HexFormat HEX = HexFormat.of();

  private final Map<String, Schema> schemas = new HashMap<>();

  private ClientOracle() {}

  public static void main(String[] args) throws IOException {
    ClientOracle oracle = new ClientOracle();
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    BufferedWriter out =
        new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      ObjectNode answer;
      try {
        answer = oracle.answer(JSON.readTree(line));
      } catch (RuntimeException e) {
        answer = JSON.createObjectNode().put("failure", String.valueOf(e));
      }
      out.write(JSON.writeValueAsString(answer));
      out.write('\n');
    }
    out.flush();
  }

  private ObjectNode answer(JsonNode r) {
    if (r.get("op").asText().equals("topic_coding")) {
      return topicCoding(r);
    }
    Schema schema =
        schemas.computeIfAbsent(r.get("schema").asText(), y -> SchemaLoader.parse(y, "oracle"));
    ObjectNode a = JSON.createObjectNode();
    switch (r.get("op").asText()) {
      case "encode" -> {
        try {
          Event e =
              event(schema, r.get("values"))
                  .payload(Base64.getDecoder().decode(r.path("payload").asText("")))
                  .publisherId(Long.parseUnsignedLong(r.path("publisher").asText("0")))
                  .sequence(Long.parseUnsignedLong(r.path("sequence").asText("0")))
                  .timestampNanos(r.path("timestamp").asLong())
                  .build();
          a.put("hex", HEX.formatHex(new EventCodec(schema).encode(e)));
        } catch (IllegalArgumentException e) {
          a.put("error", e.getMessage());
        }
      }
      case "decode" -> {
        try {
          Event e = new EventCodec(schema).decode(HEX.parseHex(r.get("hex").asText()));
          a.set("values", values(schema, e));
          a.put("payload", Base64.getEncoder().encodeToString(e.payload()));
          a.put("publisher", Long.toUnsignedString(e.publisherId()));
          a.put("sequence", Long.toUnsignedString(e.sequence()));
          a.put("timestamp", e.timestampNanos());
        } catch (DecodeException e) {
          a.put("reason", e.reason().name())
              .put("offset", e.offset())
              .put("message", e.getMessage());
        }
      }
      case "address" -> {
        List<String> dims = new ArrayList<>();
        r.get("dimensions").forEach(d -> dims.add(d.asText()));
        Schema indexed = schema.withIndex(dims);
        Event e = event(indexed, r.get("values")).build();
        if (r.path("routing").asText("pleroma").equals("pleroma")) {
          SpatialIndex index =
              r.has("length")
                  ? new SpatialIndex(indexed, r.get("length").asInt())
                  : SpatialIndex.withDefaultLength(indexed);
          a.put("dz", index.dz(e).bits()).put("address", index.address(e).addressString());
          if (r.path("pubsub").asBoolean()) {
            a.set("pubsub", pubsub(index));
          }
        } else {
          Ipv6Address q = QueryAddressLayout.of(MessageSpec.fromSchema(indexed)).address(e);
          a.put("address_hex", String.format("%016x%016x", q.high(), q.low()));
        }
      }
      case "parse" -> {
        try {
          Filter f = FilterParser.parse(schema, r.get("filter").asText());
          a.put("ok", true).put("stateful", FilterEvaluator.hasAggregates(f));
        } catch (InvalidInputException e) {
          a.put("reason", e.reason());
          e.position().ifPresent(p -> a.put("line", p.line()).put("column", p.column()));
        }
      }
      case "match" -> {
        Filter f = FilterParser.parse(schema, r.get("filter").asText());
        ArrayNode matches = a.putArray("matches");
        for (JsonNode values : r.get("events")) {
          matches.add(FilterEvaluator.matches(f, event(schema, values).build()));
        }
      }
      case "learn" -> learn(schema, r, a);
      case "bench" -> bench(schema, r, a);
      default -> throw new IllegalArgumentException("unknown op " + r.get("op"));
    }
    return a;
  }

  /**
   * A layout learned by {@link LayoutDesigner} from a sample ({@code events}, {@code filters}) at
   * {@code length} bits: what the controller publishes for it ({@link #pubsub}) and the dz of every
   * event under it.
   */
  private static void learn(Schema schema, JsonNode r, ObjectNode a) {
    List<Event> events = new ArrayList<>();
    for (JsonNode values : r.get("events")) {
      events.add(event(schema, values).build());
    }
    List<Dnf> filters = new ArrayList<>();
    r.get("filters")
        .forEach(f -> filters.add(Normalizer.toDnf(FilterParser.parse(schema, f.asText()))));
    LayoutDesigner.Design design =
        LayoutDesigner.design(
            schema,
            new FalsePositiveSample(events, filters),
            r.get("length").asInt(),
            SpatialIndex.DEFAULT_MAX_CELLS);
    SpatialIndex index = new SpatialIndex(design.schema(), design.length());
    a.set("pubsub", pubsub(index));
    ArrayNode dz = a.putArray("dz");
    for (JsonNode values : r.get("events")) {
      dz.add(index.dz(event(design.schema(), values).build()).bits());
    }
  }

  /** The index part of {@code GET /v1/pubsub} for {@code index}, as the controller writes it. */
  private static ObjectNode pubsub(SpatialIndex index) {
    Schema schema = index.schema();
    ObjectNode n = JSON.createObjectNode();
    n.put("schema", SchemaWriter.toYaml(schema));
    n.put("schema_id", schema.id());
    ObjectNode i = n.putObject("index");
    i.put("length", index.length());
    ArrayNode dims = i.putArray("dimensions");
    schema.indexDimensions().forEach(d -> dims.add(d.name()));
    i.set("layout", JSON.valueToTree(schema.layout().toJson()));
    return n;
  }

  /**
   * The Java side of clients/python's throughput benchmark, same events, same run: publish as
   * {@code Publisher.publish} does it (stamp, check the advertisement, address, encode, one UDP
   * send to a loopback port nobody reads) and receive as {@code Subscriber} does (decode, exact
   * filter on the normal form), each timed in thread CPU time over {@code count} events after as
   * many for warm-up. With {@code sink: [address, port]} the datagrams go there instead (the
   * benchmark's network namespace, where that address is behind a device that drops them).
   */
  private static void bench(Schema schema, JsonNode r, ObjectNode a) {
    List<Event> events = new ArrayList<>();
    for (JsonNode values : r.get("events")) {
      events.add(event(schema, values).build());
    }
    int count = r.get("count").asInt();
    // CPU time of this thread: events per second of one core, whatever else the machine runs.
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    SpatialIndex index = new SpatialIndex(schema, r.get("length").asInt());
    EventCodec codec = new EventCodec(schema);
    Dnf advertised = Normalizer.toDnf(FilterParser.parse(schema, r.get("advertise").asText()));
    Dnf subscribed = Normalizer.toDnf(FilterParser.parse(schema, r.get("filter").asText()));
    byte[][] encoded = new byte[events.size()][];
    for (int i = 0; i < encoded.length; i++) {
      encoded[i] = codec.encode(events.get(i));
    }
    try (DatagramChannel sink = DatagramChannel.open(StandardProtocolFamily.INET6);
        DatagramChannel out = DatagramChannel.open(StandardProtocolFamily.INET6)) {
      sink.bind(new InetSocketAddress("::1", 0));
      int port = ((InetSocketAddress) sink.getLocalAddress()).getPort();
      JsonNode sinkAt = r.get("sink");
      InetSocketAddress destination =
          sinkAt == null
              ? new InetSocketAddress(InetAddress.getByName("::1"), port)
              : new InetSocketAddress(
                  InetAddress.getByName(sinkAt.get(0).asText()), sinkAt.get(1).asInt());
      ByteBuffer buffer = ByteBuffer.allocateDirect(EventCodec.MAX_SIZE);
      long checksum = 0; // uses every address, so that computing them cannot be skipped
      for (int round = 0; round < 2; round++) {
        long start = cpu.getCurrentThreadCpuTime();
        for (int i = 0; i < count; i++) {
          Event e = events.get(i % events.size());
          Event stamped =
              e.toBuilder()
                  .publisherId(7)
                  .sequence(i + 1)
                  .timestampNanos(System.nanoTime())
                  .build();
          if (!FilterEvaluator.matches(advertised, stamped)) {
            throw new IllegalStateException("outside the advertisement");
          }
          InetAddress to = index.address(stamped).address();
          buffer.clear();
          codec.encode(stamped, buffer);
          buffer.flip();
          checksum += to.hashCode();
          out.send(buffer, new InetSocketAddress(destination.getAddress(), destination.getPort()));
        }
        a.put("publish_per_s", count * 1e9 / (cpu.getCurrentThreadCpuTime() - start));
      }
      long delivered = 0;
      for (int round = 0; round < 2; round++) {
        long start = cpu.getCurrentThreadCpuTime();
        for (int i = 0; i < count; i++) {
          Event e = codec.decode(encoded[i % encoded.length]);
          delivered += FilterEvaluator.matches(subscribed, e) ? 1 : 0;
        }
        a.put("decode_per_s", count * 1e9 / (cpu.getCurrentThreadCpuTime() - start));
      }
      a.put("delivered", delivered).put("checksum", checksum);
    } catch (IOException | DecodeException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Event.Builder event(Schema schema, JsonNode values) {
    Event.Builder b = Event.builder(schema);
    for (Attribute attribute : schema.attributes()) {
      JsonNode v = values.get(attribute.position());
      if (attribute instanceof IntAttribute) {
        b.set(attribute, v.asLong());
      } else {
        b.set(attribute, v.asText());
      }
    }
    return b;
  }

  private static ArrayNode values(Schema schema, Event e) {
    ArrayNode out = JSON.createArrayNode();
    for (Attribute attribute : schema.attributes()) {
      if (attribute instanceof IntAttribute) {
        out.add(e.intValue(attribute.position()));
      } else {
        out.add(e.stringValue(attribute.position()));
      }
    }
    return out;
  }

  /**
   * A topic coding's offsets of {@code names}, ranges of MQTT {@code filters} and of {@code
   * prefixes}, as unsigned decimal strings.
   */
  private static ObjectNode topicCoding(JsonNode r) {
    JsonNode c = r.get("coding");
    List<Integer> bits = new ArrayList<>();
    c.get("level_bits").forEach(b -> bits.add(b.asInt()));
    List<Integer> order = new ArrayList<>();
    c.path("level_order").forEach(o -> order.add(o.asInt()));
    List<List<String>> values = new ArrayList<>();
    c.path("level_values")
        .forEach(
            l -> {
              List<String> v = new ArrayList<>();
              l.forEach(x -> v.add(x.asText()));
              values.add(v);
            });
    StringCoding.Topic t =
        new StringCoding.Topic(
            bits, order.isEmpty() ? StringCoding.Topic.identity(bits.size()) : order, values);
    StringAttribute a = new StringAttribute("t", 0, 64);
    ObjectNode out = JSON.createObjectNode();
    ArrayNode offsets = out.putArray("offsets");
    r.get("names").forEach(n -> offsets.add(Long.toUnsignedString(t.offset(a, n.asText()))));
    ArrayNode filters = out.putArray("filters");
    r.get("filters").forEach(f -> filters.add(unsigned(t.patternRanges(a, f.asText()))));
    ArrayNode prefixes = out.putArray("prefixes");
    r.get("prefixes").forEach(p -> prefixes.add(unsigned(t.prefixRanges(a, p.asText()))));
    return out;
  }

  private static ArrayNode unsigned(long[] ranges) {
    ArrayNode out = JSON.createArrayNode();
    for (long x : ranges) {
      out.add(Long.toUnsignedString(x));
    }
    return out;
  }
}
