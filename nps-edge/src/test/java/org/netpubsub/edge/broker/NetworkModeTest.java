package org.netpubsub.edge.broker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.Closeable;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.client.Poll;
import org.netpubsub.edge.broker.TestClient.Received;

/**
 * Network mode end to end: the coordinator asks a stub network controller for groups (the contract
 * of docs/edge.md) and the stub plays the network too — one UDP replicator per group at the address
 * it returned, copying each datagram to every member edge's address at the agents' common port.
 */
class NetworkModeTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The controller's group API and a replicating "network", on loopback. */
  static final class StubNetwork implements Closeable {
    record Call(String method, String name, JsonNode body) {}

    final List<Call> calls = new CopyOnWriteArrayList<>();
    final Map<String, List<String>> members = new ConcurrentHashMap<>();
    private final Map<String, DatagramSocket> replicators = new ConcurrentHashMap<>();
    private final HttpServer http;
    private final int port;
    private int next = 1;

    StubNetwork(int agentPort) throws IOException {
      this.port = agentPort;
      http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
      http.createContext("/v1/groups/", this::handle);
      http.start();
    }

    URI uri() {
      return URI.create("http://127.0.0.1:" + http.getAddress().getPort());
    }

    private synchronized void handle(HttpExchange ex) throws IOException {
      String name = ex.getRequestURI().getPath().substring("/v1/groups/".length());
      byte[] in = ex.getRequestBody().readAllBytes();
      JsonNode body = in.length == 0 ? null : JSON.readTree(in);
      calls.add(new Call(ex.getRequestMethod(), name, body));
      ObjectNode reply = JSON.createObjectNode();
      if (ex.getRequestMethod().equals("PUT")) {
        List<String> m = new ArrayList<>();
        body.get("members").forEach(x -> m.add(x.asText()));
        members.put(name, m);
        DatagramSocket r = replicators.get(name);
        if (r == null) {
          r = new DatagramSocket(new InetSocketAddress("127.0.1." + next++, port));
          replicators.put(name, r);
          DatagramSocket sock = r;
          Thread.ofPlatform().daemon().start(() -> replicate(name, sock));
        }
        reply.put("name", name);
        ObjectNode sources = reply.putObject("sources");
        String sendTo = r.getLocalAddress().getHostAddress();
        body.get("sources").forEach(s -> sources.putObject(s.asText()).put("send_to", sendTo));
      } else {
        members.remove(name);
        DatagramSocket r = replicators.remove(name);
        if (r != null) {
          r.close();
        }
      }
      byte[] out = reply.toString().getBytes(StandardCharsets.UTF_8);
      ex.sendResponseHeaders(200, out.length);
      ex.getResponseBody().write(out);
      ex.close();
    }

    /** What the network does: replicate, and rewrite the destination to each member edge. */
    private void replicate(String name, DatagramSocket s) {
      byte[] buf = new byte[65_535];
      while (!s.isClosed()) {
        DatagramPacket p = new DatagramPacket(buf, buf.length);
        try {
          s.receive(p);
          for (String m : members.getOrDefault(name, List.of())) {
            s.send(new DatagramPacket(p.getData(), p.getLength(), new InetSocketAddress(m, port)));
          }
        } catch (IOException e) {
          return;
        }
      }
    }

    @Override
    public void close() {
      http.stop(0);
      replicators.values().forEach(DatagramSocket::close);
    }
  }

  private static int freeUdpPort() throws IOException {
    try (DatagramSocket s = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
      return s.getLocalPort();
    }
  }

  @Test
  void groupsFollowMembershipAndTheNetworkReplicates(@TempDir Path dir) throws Exception {
    int port = freeUdpPort();
    try (StubNetwork net = new StubNetwork(port);
        EdgeCluster c =
            EdgeCluster.start(
                dir, 3, net.uri(), i -> new InetSocketAddress("127.0.0." + (i + 1), port));
        TestClient pub = new TestClient(c.pahoUri(0), "pub");
        TestClient s1 = new TestClient(c.pahoUri(1), "s1");
        TestClient s2 = new TestClient(c.pahoUri(2), "s2")) {
      assertThat(c.agents.get(0).mode()).isEqualTo("network");
      s1.subscribe("net/+", 1);
      s2.subscribe("net/#", 1);
      c.awaitFilter(1, "net/+");
      c.awaitFilter(2, "net/#");

      pub.publish("net/a", "one", 1, false);
      Poll.until(
          "both get it",
          Duration.ofSeconds(10),
          () -> s1.received().size() == 1 && s2.received().size() == 1);
      String group = c.coordinator.groupName("net/a").orElseThrow();
      StubNetwork.Call put = net.calls.get(0);
      assertThat(put.method()).isEqualTo("PUT");
      assertThat(put.name()).isEqualTo(group);
      assertThat(put.body().get("strategy").asText()).isEqualTo("direct");
      assertThat(put.body().get("members").toString()).isEqualTo("[\"127.0.0.2\",\"127.0.0.3\"]");
      assertThat(put.body().get("sources").toString()).isEqualTo("[\"127.0.0.1\"]");
      // one datagram from the origin; the network made the copies (counted after the send
      // returns, so possibly after both have it)
      Poll.until(
          "one datagram counted",
          Duration.ofSeconds(10),
          () -> c.agents.get(0).stats().forwarded() == 1);

      s2.unsubscribe("net/#"); // the group is put again with one member
      c.awaitNoFilter(2, "net/#");
      Poll.until(
          "group re-put",
          Duration.ofSeconds(10),
          () -> List.of("127.0.0.2").equals(net.members.get(group)));
      pub.publish("net/a", "two", 1, false);
      Poll.until("s1 gets two", Duration.ofSeconds(10), () -> s1.received().size() == 2);

      s1.unsubscribe("net/+"); // no member left: the group is deleted
      c.awaitNoFilter(1, "net/+"); // and the origin's cached route is dropped
      Poll.until(
          "group deleted",
          Duration.ofSeconds(10),
          () ->
              net.calls.stream()
                  .anyMatch(x -> x.method().equals("DELETE") && x.name().equals(group)));
      EdgeAgent a = c.agents.get(0);
      long seen = a.stats().routeLookups() + a.stats().cacheHits();
      pub.publish("net/a", "three", 1, false);
      pub.publish("net/b", "four", 1, false);
      Poll.until(
          "both routed",
          Duration.ofSeconds(10),
          () -> a.stats().routeLookups() + a.stats().cacheHits() == seen + 2);
      assertThat(a.stats().forwarded()).as("nothing sent without members").isEqualTo(2);
      assertThat(s2.received()).containsExactly(new Received("net/a", "one", false));
      assertThat(s1.received().stream().map(Received::payload)).containsExactly("one", "two");
    }
  }
}
