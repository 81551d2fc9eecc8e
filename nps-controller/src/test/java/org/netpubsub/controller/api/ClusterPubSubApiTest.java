package org.netpubsub.controller.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.controller.controlplane.ClusterSettings;
import org.netpubsub.controller.pubsub.PubSubLimits;
import org.netpubsub.controller.pubsub.PubSubService;
import org.netpubsub.controller.testing.OneSwitchNetwork;
import org.netpubsub.controller.testing.Rest;
import org.netpubsub.controller.testing.Wait;
import org.netpubsub.controller.testing.ZooKeeperClients;
import org.netpubsub.network.controlplane.Partitions;

/**
 * The pub/sub REST API of two controller processes sharing a cluster's partitions (each with its
 * own simulated switch): an addition retried with the same Idempotency-Key at the other process
 * answers the same id and stands once, and the listings and the withdrawal by filter see every
 * process's requests.
 */
class ClusterPubSubApiTest {
  /** Two live requests per host at each process. */
  private static final PubSubLimits LIMITS = new PubSubLimits(8 * 1024, 200, 400, 2, 64);

  private final List<AutoCloseable> open = new ArrayList<>();
  private Rest a;
  private Rest b;

  @BeforeEach
  void start() throws Exception {
    TestingServer zk = track(new TestingServer());
    a = process(zk.getConnectString(), "a");
    b = process(zk.getConnectString(), "b");
  }

  @AfterEach
  void closeAll() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  @Test
  void aKeyedRetryAtTheOtherProcessStandsOnceAndEveryProcessListsEveryRequest() throws Exception {
    String body = "{\"host\":\"fd6e:7073:1::2\",\"filter\":\"price > 100\",\"port\":40002}";
    Map<String, String> key = Map.of("Idempotency-Key", "k1");
    HttpResponse<String> first = a.send("POST", "/v1/subscriptions", body, key);
    assertThat(first.statusCode()).as(first.body()).isEqualTo(201);
    HttpResponse<String> retry = b.send("POST", "/v1/subscriptions", body, key);
    assertThat(retry.statusCode()).as(retry.body()).isEqualTo(201);
    assertThat(Rest.json(retry).get("id").asText()).isEqualTo("s:k1");
    HttpResponse<String> other =
        b.send("POST", "/v1/subscriptions", body.replace("100", "200"), key);
    assertThat(other.statusCode()).isEqualTo(409);

    HttpResponse<String> plain =
        b.send(
            "POST",
            "/v1/subscriptions",
            "{\"host\":\"fd6e:7073:1::3\",\"filter\":\"price < 5\",\"port\":40003}");
    assertThat(plain.statusCode()).as(plain.body()).isEqualTo(201);
    for (Rest process : List.of(a, b)) {
      JsonNode subs =
          Rest.json(process.send("GET", "/v1/subscriptions", null)).get("subscriptions");
      assertThat(subs).hasSize(2); // the keyed one once, and the one only b accepted
      assertThat(subs.findValuesAsText("filter"))
          .containsExactlyInAnyOrder("price > 100", "price < 5");
    }
    // withdrawn by filter at the process that did not accept it
    HttpResponse<String> gone =
        a.send(
            "DELETE",
            "/v1/subscriptions",
            "{\"host\":\"fd6e:7073:1::3\",\"filter\":\"price <= 4\",\"port\":40003}");
    assertThat(gone.statusCode()).as(gone.body()).isEqualTo(200);
    assertThat(Rest.json(b.send("GET", "/v1/subscriptions", null)).get("subscriptions")).hasSize(1);
    assertThat(b.send("DELETE", "/v1/subscriptions/s:k1", null).statusCode()).isEqualTo(200);
    assertThat(Rest.json(a.send("GET", "/v1/subscriptions", null)).get("subscriptions")).isEmpty();
    // withdrawn (at b), the key is free again: at a, which first accepted it, it adds anew
    assertThat(a.send("POST", "/v1/subscriptions", body, key).statusCode()).isEqualTo(201);
    assertThat(Rest.json(b.send("GET", "/v1/subscriptions", null)).get("subscriptions")).hasSize(1);
    // every request answered: none in flight at either process (the cluster's "queue depth")
    for (Rest process : List.of(a, b)) {
      assertThat(process.send("GET", "/metrics", null).body())
          .contains("nps_cluster_requests_in_flight 0.0")
          .doesNotContain("nps_configurator_queue_depth");
    }
  }

  @Test
  void aRequestWithdrawnAtTheOtherProcessLeavesTheAcceptingProcessCount() throws Exception {
    List<String> ids = new ArrayList<>();
    for (String filter : List.of("price < 10", "price > 20")) {
      HttpResponse<String> r = a.send("POST", "/v1/subscriptions", sub(filter), Map.of());
      assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
      ids.add(Rest.json(r).get("id").asText());
    }
    HttpResponse<String> full = a.send("POST", "/v1/subscriptions", sub("price > 30"), Map.of());
    assertThat(full.statusCode()).as(full.body()).isEqualTo(429);
    assertThat(b.send("DELETE", "/v1/subscriptions/" + ids.get(0), null).statusCode())
        .isEqualTo(200);
    Wait.until(
        "a counts the withdrawal",
        Duration.ofSeconds(10),
        () -> {
          try {
            return a.send("POST", "/v1/subscriptions", sub("price > 30"), Map.of()).statusCode()
                == 201;
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
  }

  private static String sub(String filter) {
    return "{\"host\":\"fd6e:7073:1::4\",\"filter\":\"" + filter + "\",\"port\":40004}";
  }

  private Rest process(String connect, String member) throws Exception {
    OneSwitchNetwork net = track(OneSwitchNetwork.startController());
    PubSubService service =
        PubSubService.attachCluster(
            net.controller(),
            new SpatialIndex(PubSubApiTest.QUOTES, 12),
            LIMITS,
            new ClusterSettings(
                client(connect), "/nps", member, Partitions.uniform(4), Duration.ofSeconds(5)));
    track(service::close);
    ControllerApi api =
        track(
            ControllerApi.start(
                net.controller(), Optional.of(service), new InetSocketAddress("::1", 0)));
    net.connectSwitch(4);
    return new Rest(api.address().getPort());
  }

  private CuratorFramework client(String connect) {
    return track(ZooKeeperClients.started(connect));
  }

  private <T extends AutoCloseable> T track(T t) {
    open.add(t);
    return t;
  }
}
