package org.netpubsub.controller.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.InetSocketAddress;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.netpubsub.controller.api.ControllerApi;
import org.netpubsub.controller.multicast.MulticastGroups;
import org.netpubsub.controller.pubsub.PubSubService;
import org.netpubsub.controller.sim.SimulatedOpenFlowSwitch;
import org.netpubsub.controller.southbound.DesiredState;
import org.netpubsub.controller.testing.OneSwitchNetwork;
import org.netpubsub.controller.testing.Rest;
import org.netpubsub.controller.testing.Wait;
import org.netpubsub.controller.testing.ZooKeeperClients;
import org.netpubsub.network.multicast.GroupForwarding;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.topology.Host;

/**
 * Controller processes of a cluster against real ZooKeeper, each with its own switch (dpid and
 * ports alike): a host registered and a group put at one process reach every other, a process that
 * joins later loads them (a host waiting until its switch connects), and a group deleted at any
 * process goes everywhere; every process then wants the same multicast state on the switch, so no
 * process's reconcile removes another's.
 */
class ClusterRegistryTest {
  private static final long DPID = OneSwitchNetwork.DPID;
  private static final String GROUP = "plant/line-1";

  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  /** One controller process: its controller, groups, registry, REST API and client. */
  private record Process(
      NetworkController controller, MulticastGroups groups, ClusterRegistry registry, Rest rest)
      implements AutoCloseable {
    DesiredState wants() {
      return controller.server().desiredState().get(DPID).orElse(DesiredState.EMPTY);
    }

    Set<FlowEntry> multicastFlows() {
      Set<FlowEntry> out = new HashSet<>();
      wants().flows().stream().filter(f -> f.cookie() == GroupForwarding.COOKIE).forEach(out::add);
      return out;
    }

    boolean knows(Host h) {
      return controller.topology().host(h.address()).map(h::equals).orElse(false);
    }

    JsonNode get(String path) throws Exception {
      return Rest.json(rest.send("GET", path, null));
    }

    /** A crash or a stop: the registry leaves the writer latch, the controller stops. */
    @Override
    public void close() {
      registry.close();
      controller.close();
    }
  }

  @Test
  void hostsAndGroupsPutAtOneProcessReachEveryProcess() throws Exception {
    TestingServer zk = track(new TestingServer());
    Process a = process(zk.getConnectString(), "a", true);
    poll(() -> a.registry().writesMulticast(), "a writes the multicast state");
    Process b = process(zk.getConnectString(), "b", true);
    Host h1 = OneSwitchNetwork.host(1);
    Host h2 = OneSwitchNetwork.host(2);
    Host h3 = OneSwitchNetwork.host(3);

    assertThat(register(a, h1).statusCode()).isEqualTo(200);
    assertThat(register(a, h2).statusCode()).isEqualTo(200);
    assertThat(register(b, h3).statusCode()).isEqualTo(200);
    poll(() -> b.knows(h1) && b.knows(h2) && a.knows(h3), "the hosts at both processes");

    HttpResponse<String> bad = // validated where it is accepted, and not recorded
        b.rest().send("POST", "/v1/hosts", hostBody(OneSwitchNetwork.host(4), "00000000000000ff"));
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(Rest.json(bad).at("/error/message").asText()).contains("unknown switch");
    assertThat(client(zk.getConnectString()).checkExists().forPath("/nps/hosts/fd6e:7073:1::4"))
        .isNull();

    // put at b, which does not write: answered with the placement the writer (a) made
    HttpResponse<String> put =
        b.rest()
            .send(
                "PUT",
                groupPath(),
                "{\"members\":[\"fd6e:7073:1::2\",\"fd6e:7073:1::3\"],"
                    + "\"sources\":[\"fd6e:7073:1::1\"]}");
    assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
    JsonNode placed = Rest.json(put);
    String sendTo = placed.get("sources").get("fd6e:7073:1::1").get("send_to").asText();
    assertThat(a.groups().placement(GROUP).join()).isPresent();
    assertThat(a.multicastFlows()).isNotEmpty(); // the writer wants the trees...
    assertThat(b.multicastFlows()).isEmpty(); // ...the others leave them to it
    assertThat(b.get(groupPath())).isEqualTo(placed);
    assertThat(a.get(groupPath())).isEqualTo(placed);

    // two groups put at once at two processes
    var second =
        java.util.concurrent.CompletableFuture.supplyAsync(
            () -> putGroup(a, "second", "fd6e:7073:1::1", "fd6e:7073:1::3"));
    assertThat(putGroup(b, "third", "fd6e:7073:1::3", "fd6e:7073:1::1")).isEqualTo(200);
    assertThat(second.join()).isEqualTo(200);
    assertThat(b.get("/v1/groups").get("groups")).hasSize(3);
    assertThat(b.get("/v1/groups")).isEqualTo(a.get("/v1/groups"));
    assertThat(b.get("/v1/groups").get("writer").asText()).isEqualTo("a");

    Process c = process(zk.getConnectString(), "c", false); // joins later, its switch not yet there
    assertThat(c.knows(h1)).isFalse();
    connectSwitch(c.controller());
    poll(() -> c.knows(h1) && c.knows(h2) && c.knows(h3), "c loaded the hosts");
    assertThat(c.get("/v1/groups")).isEqualTo(a.get("/v1/groups"));
    assertThat(c.multicastFlows()).isEmpty();

    // the writer goes: another process replays every group, with entry SIDs of its own
    a.close();
    poll(
        () -> b.registry().writesMulticast() || c.registry().writesMulticast(),
        "a new multicast writer");
    Process next = b.registry().writesMulticast() ? b : c;
    Process other = next == b ? c : b;
    poll(() -> !next.multicastFlows().isEmpty(), "the new writer wants the trees");
    poll(
        () -> {
          try {
            JsonNode now = other.get(groupPath()).get("sources").get("fd6e:7073:1::1");
            return !now.get("send_to").asText().equals(sendTo);
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        },
        "the placements republished by the new writer");
    assertThat(other.get("/v1/groups").get("groups")).hasSize(3);
    String nextId = next == b ? "b" : "c";
    poll(
        () -> {
          try {
            return other.get("/v1/groups").path("writer").asText().equals(nextId);
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        },
        "the new writer's summary");
    assertThat(other.multicastFlows()).isEmpty();

    assertThat(other.rest().send("DELETE", groupPath(), null).statusCode()).isEqualTo(200);
    assertThat(next.groups().placement(GROUP).join()).isEmpty();
    assertThat(next.get("/v1/groups").get("groups")).hasSize(2);
    assertThat(other.rest().send("DELETE", groupPath(), null).statusCode()).isEqualTo(404);
  }

  /**
   * Issue 27: the cap on groups holds for groups put through the cluster's registry, at any
   * process, with the reason of a process without a cluster, and a refused group is not recorded.
   */
  @Test
  void theCapOnGroupsHoldsAcrossTheClusterAndARefusedGroupIsNotRecorded() throws Exception {
    TestingServer zk = track(new TestingServer());
    Process a = process(zk.getConnectString(), "a", true);
    a.groups().maxGroups(2);
    poll(() -> a.registry().writesMulticast(), "a writes the multicast state");
    Process b = process(zk.getConnectString(), "b", true);
    b.groups().maxGroups(2);
    for (int i = 1; i <= 3; i++) {
      assertThat(register(a, OneSwitchNetwork.host(i)).statusCode()).isEqualTo(200);
    }
    poll(() -> b.knows(OneSwitchNetwork.host(3)), "the hosts at b");
    assertThat(putGroup(b, "one", "fd6e:7073:1::2", "fd6e:7073:1::1")).isEqualTo(200);

    // two new groups at once, one at each process, for the one place left: one of them is taken
    var atA =
        java.util.concurrent.CompletableFuture.supplyAsync(
            () -> putGroupResponse(a, "two", "fd6e:7073:1::3", "fd6e:7073:1::1"));
    HttpResponse<String> atB = putGroupResponse(b, "three", "fd6e:7073:1::3", "fd6e:7073:1::2");
    List<HttpResponse<String>> both = List.of(atA.join(), atB);
    assertThat(both).extracting(HttpResponse::statusCode).containsExactlyInAnyOrder(200, 429);
    HttpResponse<String> refused = both.get(0).statusCode() == 429 ? both.get(0) : both.get(1);
    assertThat(Rest.json(refused).at("/error/message").asText())
        .isEqualTo("there are 2 multicast groups already (the limit of groups)");
    assertThat(client(zk.getConnectString()).getChildren().forPath("/nps/groups")).hasSize(2);
    assertThat(a.get("/v1/groups").get("groups")).hasSize(2);
    assertThat(b.get("/v1/groups")).isEqualTo(a.get("/v1/groups"));
    assertThat(a.groups().snapshot().join().groups()).hasSize(2);

    // at the cap: changing a recorded group is allowed, a new one is not; a removal makes room
    assertThat(putGroup(a, "one", "fd6e:7073:1::3", "fd6e:7073:1::1")).isEqualTo(200);
    assertThat(putGroup(a, "four", "fd6e:7073:1::2", "fd6e:7073:1::1")).isEqualTo(429);
    assertThat(b.rest().send("DELETE", "/v1/groups/one", null).statusCode()).isEqualTo(200);
    assertThat(putGroup(a, "four", "fd6e:7073:1::2", "fd6e:7073:1::1")).isEqualTo(200);
    assertThat(b.get("/v1/groups").get("groups")).hasSize(2);
  }

  private static int putGroup(Process p, String name, String member, String source) {
    return putGroupResponse(p, name, member, source).statusCode();
  }

  private static HttpResponse<String> putGroupResponse(
      Process p, String name, String member, String source) {
    try {
      return p.rest()
          .send(
              "PUT",
              "/v1/groups/" + name,
              "{\"members\":[\"" + member + "\"],\"sources\":[\"" + source + "\"]}");
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static String groupPath() {
    return "/v1/groups/" + URLEncoder.encode(GROUP, StandardCharsets.UTF_8);
  }

  private static HttpResponse<String> register(Process p, Host h) throws Exception {
    return p.rest().send("POST", "/v1/hosts", hostBody(h, Long.toHexString(DPID)));
  }

  private static String hostBody(Host h, String dpid) {
    return "{\"address\":\""
        + h.address()
        + "\",\"mac\":\""
        + h.mac()
        + "\",\"dpid\":\""
        + dpid
        + "\",\"port\":"
        + h.attachment().port()
        + "}";
  }

  private Process process(String connect, String member, boolean withSwitch) throws Exception {
    AtomicBoolean writes = new AtomicBoolean();
    NetworkController controller =
        NetworkController.start(
            ControllerConfig.defaults()
                .withPort("127.0.0.1", 0)
                .withReconcileScope(PubSubService.clusterReconcileScope(writes::get, () -> false)));
    MulticastGroups groups = MulticastGroups.attach(controller);
    ClusterRegistry registry =
        ClusterRegistry.start(client(connect), "/nps", member, controller, groups, writes);
    ControllerApi api =
        track(
            ControllerApi.start(
                controller,
                Optional.empty(),
                Optional.of(groups),
                Optional.of(registry),
                new InetSocketAddress("::1", 0)));
    Process p = track(new Process(controller, groups, registry, new Rest(api.address().getPort())));
    if (withSwitch) {
      connectSwitch(controller);
    }
    return p;
  }

  private void connectSwitch(NetworkController controller) throws Exception {
    SimulatedOpenFlowSwitch sw =
        track(SimulatedOpenFlowSwitch.builder().dpid(DPID).ports(1, 2, 3, 4).build());
    sw.connect(new InetSocketAddress("127.0.0.1", controller.openflowAddress().getPort())).get();
    poll(() -> controller.topology().hasSwitch(DPID), "the switch");
  }

  private CuratorFramework client(String connect) {
    return track(ZooKeeperClients.started(connect));
  }

  private <T extends AutoCloseable> T track(T t) {
    open.add(t);
    return t;
  }

  private static void poll(BooleanSupplier condition, String what) {
    Wait.until(what, Duration.ofSeconds(20), condition);
  }
}
