package org.netpubsub.edge.broker;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.netpubsub.client.Poll;
import org.netpubsub.edge.amqp.AmqpTopics;
import org.netpubsub.edge.coordinator.EdgeCoordinator;
import org.netpubsub.edge.link.TestKeys;

/**
 * One script of AMQP client actions against one RabbitMQ (virtual host {@code ref} of node 0) and
 * against three RabbitMQ edges with agents and a coordinator: every consumer receives the same
 * multiset of messages (routing key, body, content type, headers), with {@code *}, {@code #} and a
 * {@code #} before other words; exchanges declared at one edge are usable at all and go when their
 * declarer deletes them; malformed datagrams are counted and dropped; the coordinator's exchanges
 * survive its restart. Three nodes per class.
 */
class AmqpEdgeDifferentialTest {
  private static final List<RabbitMq> NODES = new ArrayList<>();
  private static Path dir;
  private static EdgeCoordinator coordinator;
  private static final List<EdgeAgent> AGENTS = new ArrayList<>();

  /** Where the script's clients connect, and how to wait for the system to catch up. */
  private interface Brokers {
    ConnectionFactory at(int edge);

    default void awaitExchange(int edge, String exchange) {}

    default void awaitBinding(int edge, String exchange, String key) {}

    default void settle() {}
  }

  @BeforeAll
  static void start() throws IOException {
    RabbitMq.assumeAvailable();
    dir = Files.createTempDirectory("nps-amqp-edges-");
    NODES.addAll(RabbitMq.startAll(3));
    NODES.get(0).addVhost("ref");
    coordinator = startCoordinator(new InetSocketAddress("127.0.0.1", 0));
    for (int i = 0; i < 3; i++) {
      AGENTS.add(
          EdgeAgent.builder()
              .auth(TestKeys.AUTH)
              .edge("e" + i)
              .broker(NODES.get(i).uri())
              .coordinator(URI.create("http://127.0.0.1:" + coordinator.address().getPort()))
              .listen(new InetSocketAddress("127.0.0.1", 0))
              .changeWait(Duration.ofSeconds(5))
              .start());
    }
  }

  private static EdgeCoordinator startCoordinator(InetSocketAddress at) throws IOException {
    return EdgeCoordinator.builder()
        .listen(at)
        .database("sqlite:" + dir.resolve("coordinator.db"))
        .changeWait(Duration.ofSeconds(5))
        .ackTimeout(Duration.ofSeconds(2))
        .start();
  }

  @AfterAll
  static void stop() {
    AGENTS.forEach(EdgeAgent::close);
    if (coordinator != null) {
      coordinator.close();
    }
    RabbitMq.closeAll(NODES);
  }

  private static final List<String> KEYS =
      List.of("a", "a.b", "a.b.c", "x.z", "z", "", "a..b", "q.b.r", "a.x.y.c", "+.#", "a/b");

  /** Consumers: (edge, exchange, binding key). */
  private static final List<List<Object>> CONSUMERS =
      List.of(
          List.of(1, "sensors", "a.*"),
          List.of(2, "sensors", "a.#"),
          List.of(0, "sensors", "#.z"),
          List.of(2, "sensors", "*.b.*"),
          List.of(1, "sensors", ""),
          List.of(1, "sensors", "a.#.c"),
          List.of(0, "sensors", "a.b"),
          List.of(1, "sensors", "+.#"),
          List.of(0, "alarms", "#"));

  /** Runs the script; returns per consumer what it received, sorted. */
  private static List<List<String>> run(Brokers b) throws Exception {
    List<Connection> open = new ArrayList<>();
    try {
      Connection p0 = b.at(0).newConnection();
      Connection p1 = b.at(1).newConnection();
      Connection p2 = b.at(2).newConnection();
      open.addAll(List.of(p0, p1, p2));
      Channel c0 = p0.createChannel();
      Channel c2 = p2.createChannel();
      c0.exchangeDeclare("sensors", "topic");
      c2.exchangeDeclare("alarms", "topic");
      for (int e = 0; e < 3; e++) {
        b.awaitExchange(e, "sensors");
        b.awaitExchange(e, "alarms");
      }
      List<List<String>> received = new ArrayList<>();
      for (List<Object> c : CONSUMERS) {
        int edge = (Integer) c.get(0);
        Connection conn = b.at(edge).newConnection();
        open.add(conn);
        Channel ch = conn.createChannel();
        String q = ch.queueDeclare().getQueue();
        ch.queueBind(q, (String) c.get(1), (String) c.get(2));
        List<String> got = Collections.synchronizedList(new ArrayList<>());
        received.add(got);
        ch.basicConsume(q, true, (tag, d) -> got.add(describe(d)), tag -> {});
        b.awaitBinding(edge, (String) c.get(1), (String) c.get(2));
      }
      Channel[] publishers = {c0, p1.createChannel(), c2};
      int n = 0;
      for (int round = 0; round < 3; round++) {
        for (int e = 0; e < 3; e++) {
          for (String key : KEYS) {
            n++;
            Map<String, Object> headers = new TreeMap<>();
            headers.put("n", n);
            headers.put("from", "p" + e);
            headers.put("nested", Map.of("k", "v" + n));
            AMQP.BasicProperties props =
                new AMQP.BasicProperties.Builder()
                    .contentType("text/plain")
                    .headers(headers)
                    .build();
            publishers[e].basicPublish(
                "sensors", key, props, ("m" + n).getBytes(StandardCharsets.UTF_8));
            publishers[e].basicPublish(
                "alarms", key, props, ("alarm" + n).getBytes(StandardCharsets.UTF_8));
          }
        }
      }
      // how many each consumer must get (AMQP's rule, AmqpTopics.matches): wait for that many,
      // then until nothing is in flight, so that a duplicate would show
      for (int i = 0; i < CONSUMERS.size(); i++) {
        String key = (String) CONSUMERS.get(i).get(2);
        long expected = 9 * KEYS.stream().filter(k -> AmqpTopics.matches(key, k)).count();
        List<String> got = received.get(i);
        Poll.until(
            expected + " messages at consumer " + CONSUMERS.get(i),
            Duration.ofSeconds(20),
            () -> got.size() >= expected);
      }
      b.settle();
      return received.stream()
          .map(l -> l.stream().sorted().collect(Collectors.toList()))
          .collect(Collectors.toList());
    } finally {
      for (Connection c : open) {
        c.close();
      }
    }
  }

  private static String describe(com.rabbitmq.client.Delivery d) {
    Map<String, String> headers = new TreeMap<>();
    if (d.getProperties().getHeaders() != null) {
      d.getProperties()
          .getHeaders()
          .forEach(
              (k, v) -> {
                if (!k.equals(AmqpEdgeAgent.ORIGIN)) {
                  headers.put(k, String.valueOf(v));
                }
              });
    }
    return d.getEnvelope().getExchange()
        + "|"
        + d.getEnvelope().getRoutingKey()
        + "|"
        + new String(d.getBody(), StandardCharsets.UTF_8)
        + "|"
        + d.getProperties().getContentType()
        + "|"
        + headers;
  }

  @Test
  void edgesDeliverWhatOneBrokerDelivers() throws Exception {
    List<List<String>> reference = run(edge -> NODES.get(0).factory("ref"));
    assertThat(reference.stream().mapToInt(List::size).sum()).isGreaterThan(100);
    List<List<String>> edges = run(new EdgeBrokers());
    for (int i = 0; i < CONSUMERS.size(); i++) {
      assertThat(edges.get(i)).as("consumer %s", CONSUMERS.get(i)).isEqualTo(reference.get(i));
    }
    // the agents' own traffic never came back: no loop, nothing dropped but by design
    for (EdgeAgent a : AGENTS) {
      assertThat(a.stats().dropped()).as(a.edge()).isEmpty();
    }

    // malformed datagrams: counted and dropped
    EdgeAgent target = AGENTS.get(1);
    byte[] bad =
        DatagramCodec.encode(
            new EdgeMessage(
                "e0", 1, AmqpTopics.topic("sensors", "a.b"), new byte[] {1, 2}, 0, false));
    try (DatagramSocket s = new DatagramSocket()) {
      byte[] garbage = "garbage, not a datagram".getBytes(StandardCharsets.UTF_8);
      garbage = TestKeys.seal(garbage); // authentic, but not a datagram
      bad = TestKeys.seal(bad);
      s.send(new DatagramPacket(garbage, garbage.length, target.datagramAddress()));
      s.send(new DatagramPacket(bad, bad.length, target.datagramAddress()));
    }
    Poll.until(
        "malformed datagrams counted",
        Duration.ofSeconds(10),
        () ->
            target.stats().dropped().getOrDefault("bad_magic", 0L) == 1
                && target.stats().dropped().getOrDefault("bad_envelope", 0L) == 1);

    // the coordinator's exchanges survive its restart
    InetSocketAddress at = coordinator.address();
    coordinator.close();
    coordinator = startCoordinator(at);
    assertThat(exchangesAt(2)).contains("alarms");

    // deleting "alarms" where it was declared removes it from every edge
    try (Connection c = NODES.get(2).factory().newConnection()) {
      c.createChannel().exchangeDelete("alarms");
    }
    for (int e = 0; e < 2; e++) {
      int edge = e;
      Poll.until("alarms gone at e" + edge, Duration.ofSeconds(15), () -> !exists(edge, "alarms"));
    }
    assertThat(exists(0, "sensors")).isTrue();
  }

  private static List<String> exchangesAt(int edge) throws Exception {
    java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
    String body =
        http.send(
                java.net.http.HttpRequest.newBuilder(
                        URI.create(
                            "http://127.0.0.1:"
                                + coordinator.address().getPort()
                                + "/v1/exchanges"))
                    .build(),
                java.net.http.HttpResponse.BodyHandlers.ofString())
            .body();
    List<String> out = new ArrayList<>();
    new com.fasterxml.jackson.databind.ObjectMapper()
        .readTree(body)
        .path("exchanges")
        .forEach(
            x -> {
              for (var e : x.path("edges")) {
                if (e.asText().equals("e" + edge)) {
                  out.add(x.path("name").asText());
                }
              }
            });
    return out;
  }

  private static boolean exists(int edge, String exchange) {
    try (Connection c = NODES.get(edge).factory().newConnection()) {
      c.createChannel().exchangeDeclarePassive(exchange);
      return true;
    } catch (IOException | TimeoutException e) {
      return false;
    }
  }

  /** The three edges with agents. */
  private static final class EdgeBrokers implements Brokers {
    @Override
    public ConnectionFactory at(int edge) {
      return NODES.get(edge).factory();
    }

    @Override
    public void awaitExchange(int edge, String exchange) {
      Poll.until(exchange + " at e" + edge, Duration.ofSeconds(15), () -> exists(edge, exchange));
    }

    @Override
    public void awaitBinding(int edge, String exchange, String key) {
      EdgeAgent a = AGENTS.get(edge);
      String filter = AmqpTopics.filter(exchange, key);
      Poll.until(
          "binding " + filter + " acknowledged at e" + edge,
          Duration.ofSeconds(15),
          () -> a.acknowledgedFilters().contains(filter) && !a.reportsPending());
    }

    @Override
    public void settle() {
      EdgeCluster.awaitSettled(AGENTS, Duration.ofSeconds(20), true);
    }
  }
}
