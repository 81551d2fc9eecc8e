package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.netpubsub.edge.broker.AgentStats;
import org.netpubsub.edge.overlay.Zk;
import org.netpubsub.http.RestServer;

/**
 * {@code --metrics} of the edge agent and the overlay brokers: the counters they keep are served as
 * Prometheus text that promtool accepts, names that appear later (a drop reason) show up at the
 * next scrape, and readiness follows the ZooKeeper session.
 */
class EdgeMetersTest {
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void theAgentsCountersAreServedAndFollowItsStats() throws Exception {
    AtomicReference<AgentStats> stats =
        new AtomicReference<>(new AgentStats(5, 7, 6, 2, 1, 3, Map.of(), Map.of(), Map.of()));
    MetricsOption option = option();
    try (RestServer s =
        option.start("edge-agent", r -> EdgeMeters.agent(r, stats::get), null, null)) {
      String first = get(s, "/metrics").body();
      assertThat(first)
          .contains("nps_edge_agent_forwarded_total 5.0")
          .contains("nps_edge_agent_received_total 7.0")
          .contains("nps_edge_agent_route_lookups_total 2.0")
          .doesNotContain("nps_edge_agent_dropped_total");
      stats.set(
          new AgentStats(
              9,
              7,
              6,
              2,
              1,
              3,
              Map.of("no_route", 4L),
              Map.of("nacks_sent", 2L, "retransmitted", 3L, "pending", 8L),
              Map.of(
                  "key_polls",
                  12L,
                  "key_poll_failures",
                  1L,
                  "key_rotations",
                  1L,
                  "keys_held",
                  2L)));
      String later = get(s, "/metrics").body();
      assertThat(later)
          .contains("nps_edge_agent_forwarded_total 9.0")
          .contains("nps_edge_agent_dropped_total{reason=\"no_route\"} 4.0")
          .contains("nps_edge_agent_reliable_total{event=\"nacks_sent\"} 2.0")
          .contains("nps_edge_agent_reliable_total{event=\"retransmitted\"} 3.0")
          .contains("nps_edge_agent_reliable_state{state=\"pending\"} 8.0")
          .contains("nps_edge_agent_key_polls_total 12.0")
          .contains("nps_edge_agent_key_poll_failures_total 1.0")
          .contains("nps_edge_agent_key_rotations_total 1.0")
          .contains("nps_edge_agent_keys_held 2.0");
      assertThat(promtool(later)).isEmpty();
      assertThat(get(s, "/health/ready").statusCode()).isEqualTo(200);
    }
  }

  @Test
  void anOverlayBrokersCountersLeaderAndReadiness() throws Exception {
    Map<String, Long> counters = new ConcurrentHashMap<>(Map.of("relayed", 11L, "assigned", 2L));
    AtomicBoolean leader = new AtomicBoolean(true);
    AtomicBoolean session = new AtomicBoolean(true);
    MetricsOption option = option();
    try (RestServer s =
        option.start(
            "routing-broker",
            r -> EdgeMeters.overlay(r, () -> new TreeMap<>(counters), leader::get),
            "zookeeper",
            session::get)) {
      counters.put("dropped.malformed", 1L);
      counters.put("edges_revoked", 3L); // a gauge: the edges refused now
      String text = get(s, "/metrics").body();
      assertThat(text)
          .contains("nps_overlay_relayed_total 11.0")
          .contains("nps_overlay_assigned_total 2.0")
          .contains("nps_overlay_dropped_total{reason=\"malformed\"} 1.0")
          .contains("nps_overlay_leader 1.0")
          .contains("nps_overlay_edges_revoked 3.0")
          .doesNotContain("nps_overlay_edges_revoked_total");
      assertThat(promtool(text)).isEmpty();
      leader.set(false);
      assertThat(get(s, "/metrics").body()).contains("nps_overlay_leader 0.0");
      assertThat(get(s, "/health/ready").statusCode()).isEqualTo(200);
      session.set(false);
      HttpResponse<String> notReady = get(s, "/health/ready");
      assertThat(notReady.statusCode()).isEqualTo(503);
      assertThat(notReady.body()).contains("\"zookeeper\":false");
      assertThat(get(s, "/health/live").statusCode()).isEqualTo(200);
    }
  }

  @Test
  void anOverlayBrokersZooKeeperOperationsAreTimed() throws Exception {
    try (TestingServer zk = new TestingServer();
        CuratorFramework client =
            Zk.connected(
                zk.getConnectString(), Duration.ofSeconds(10), Duration.ofSeconds(10), null);
        RestServer s =
            option()
                .start(
                    "edge-broker",
                    r -> {
                      ZooKeeperLatency.trace(r, client);
                      return EdgeMeters.overlay(r, TreeMap::new, null);
                    },
                    null,
                    null)) {
      String before = get(s, "/metrics").body();
      assertThat(before).doesNotContain("operation=\"create-foreground\"");
      client.create().forPath("/timed", new byte[] {1});
      client.getData().forPath("/timed");
      String text = get(s, "/metrics").body();
      assertThat(text)
          .contains(
              "nps_overlay_zookeeper_latency_seconds_count{operation=\"create-foreground\"} 1")
          .contains(
              "nps_overlay_zookeeper_latency_seconds_count{operation=\"getdata-foreground\"} 1");
      assertThat(promtool(text)).isEmpty();
    }
  }

  @Test
  void withoutTheOptionThereIsNoServer() {
    assertThat(new MetricsOption().start("x", r -> () -> {}, null, null)).isNull();
  }

  private static MetricsOption option() {
    MetricsOption o = new MetricsOption();
    o.metrics = "127.0.0.1:0";
    return o;
  }

  private HttpResponse<String> get(RestServer s, String path) throws Exception {
    URI u = URI.create("http://127.0.0.1:" + s.address().getPort() + path);
    return http.send(HttpRequest.newBuilder(u).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String promtool(String text) throws IOException, InterruptedException {
    Process p;
    try {
      p = new ProcessBuilder("promtool", "check", "metrics").redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new AssertionError(
          "promtool is missing: run scripts/bootstrap (Debian package prometheus)", e);
    }
    p.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return p.exitValue() == 0 ? "" : "exit " + p.exitValue() + ": " + out;
  }
}
