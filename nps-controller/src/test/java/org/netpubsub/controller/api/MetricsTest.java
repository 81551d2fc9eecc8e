package org.netpubsub.controller.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.controller.controlplane.ControlPlaneSettings;
import org.netpubsub.controller.multicast.MulticastGroups;
import org.netpubsub.controller.pubsub.PubSubLimits;
import org.netpubsub.controller.pubsub.PubSubService;
import org.netpubsub.controller.testing.OneSwitchNetwork;
import org.netpubsub.controller.testing.Rest;
import org.netpubsub.network.controlplane.Partitions;

/**
 * {@code /metrics} against a controller with one simulated switch: Prometheus's own checker
 * (promtool, from scripts/bootstrap) accepts it, the pub/sub counters follow a subscription, and
 * every metric the Grafana dashboard (docs/ops/) queries is there.
 */
class MetricsTest {
  private static final Schema QUOTES =
      Schema.builder("quotes").intAttribute("price", 0, 100_000).index(List.of("price")).build();
  private static final Path DASHBOARD = Path.of("..", "docs", "ops", "grafana-controller.json");

  private OneSwitchNetwork net;
  private ControllerApi api;
  private Rest rest;

  @BeforeEach
  void start() throws Exception {
    net = OneSwitchNetwork.startController();
    PubSubService service =
        // the partitioned engine: its configurator queue and migration meters too
        PubSubService.attachPartitioned(
            net.controller(),
            new SpatialIndex(QUOTES, 8),
            PubSubLimits.DEFAULTS,
            ControlPlaneSettings.of(2, Partitions.uniform(4)));
    api =
        ControllerApi.start(
            net.controller(),
            Optional.of(service),
            Optional.of(MulticastGroups.attach(net.controller())),
            new InetSocketAddress("::1", 0));
    rest = new Rest(api.address().getPort());
    net.connectSwitch(2);
  }

  @AfterEach
  void stop() {
    api.close();
    net.close();
  }

  private String scrape() throws Exception {
    HttpResponse<String> r = rest.send("GET", "/metrics", null);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
    return r.body();
  }

  @Test
  void promtoolAcceptsTheMetricsAndTheSubscriptionCountersMove() throws Exception {
    String before = scrape();
    assertThat(before)
        .contains("nps_pubsub_standing{kind=\"subscription\"} 0.0")
        .contains("nps_switches_connected 1.0")
        .contains("nps_hosts_refused_total{reason=\"port_full\"} 0.0")
        .contains("nps_hosts_refused_total{reason=\"move_to_full_port\"} 0.0")
        .contains("nps_configurator_queue_depth 0.0")
        .contains("nps_configurator_migrations_total 0.0")
        .containsPattern("nps_nbi_app_packet_ins_total\\{app=\"[a-z-]+\"\\} ")
        // the registered topics, from 0; each matched one counts its packet-ins
        .containsPattern("nps_nbi_topic_packet_ins_total\\{topic=\"[^\"]+\"\\} ");
    HttpResponse<String> sub =
        rest.send(
            "POST", "/v1/subscriptions", "{\"host\":\"fd6e:7073:1::2\",\"filter\":\"price > 10\"}");
    assertThat(sub.statusCode()).as(sub.body()).isEqualTo(201);
    HttpResponse<String> ad =
        rest.send(
            "POST", "/v1/advertisements", "{\"host\":\"fd6e:7073:1::1\",\"filter\":\"true\"}");
    assertThat(ad.statusCode()).as(ad.body()).isEqualTo(201);
    String after = scrape();
    assertThat(after)
        .contains("nps_pubsub_standing{kind=\"subscription\"} 1.0")
        .contains("nps_pubsub_standing{kind=\"advertisement\"} 1.0")
        .contains(
            "nps_pubsub_requests_total{action=\"post\",kind=\"subscription\",status=\"201\"} 1.0")
        .containsPattern("nps_openflow_barrier_latency_seconds_count [1-9]")
        .containsPattern("nps_openflow_flow_mods_sent_total [1-9]");
    assertThat(promtool(after)).isEmpty();
  }

  @Test
  void everyMetricTheGrafanaDashboardQueriesIsExported() throws Exception {
    // a REST request and a pub/sub request, so that their series exist
    rest.send("POST", "/v1/subscriptions", "{\"host\":\"fd6e:7073:1::2\",\"filter\":\"true\"}");
    String text = scrape();
    TreeSet<String> exported = new TreeSet<>();
    for (String line : text.split("\n")) {
      if (!line.startsWith("#") && !line.isBlank()) {
        exported.add(line.split("[{ ]", 2)[0]);
      }
    }
    JsonNode dash = new ObjectMapper().readTree(Files.readString(DASHBOARD));
    TreeSet<String> queried = new TreeSet<>();
    Pattern metric = Pattern.compile("\\b((?:nps|jvm|process)_[a-z_]+)\\b");
    for (JsonNode panel : dash.get("panels")) {
      for (JsonNode target : panel.get("targets")) {
        Matcher m = metric.matcher(target.get("expr").asText());
        while (m.find()) {
          queried.add(m.group(1));
        }
      }
    }
    assertThat(queried).hasSizeGreaterThan(10);
    assertThat(exported).containsAll(queried);
  }

  /** What {@code promtool check metrics} says about {@code text}: empty when it passes. */
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
