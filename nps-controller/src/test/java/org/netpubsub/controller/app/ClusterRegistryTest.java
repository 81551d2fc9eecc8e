package org.netpubsub.controller.app;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.function.BooleanSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.netpubsub.controller.multicast.MulticastGroups;
import org.netpubsub.controller.sim.SimulatedOpenFlowSwitch;
import org.netpubsub.controller.southbound.DesiredState;
import org.netpubsub.controller.testing.OneSwitchNetwork;
import org.netpubsub.controller.testing.Rest;
import org.netpubsub.controller.testing.Wait;
import org.netpubsub.network.multicast.GroupForwarding;
import org.netpubsub.network.multicast.GroupSpec;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.GroupEntry;
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
  private record Process(NetworkController controller, MulticastGroups groups, Rest rest) {
    DesiredState wants() {
      return controller.server().desiredState().get(DPID).orElse(DesiredState.EMPTY);
    }

    Set<FlowEntry> multicastFlows() {
      Set<FlowEntry> out = new HashSet<>();
      wants().flows().stream().filter(f -> f.cookie() == GroupForwarding.COOKIE).forEach(out::add);
      return out;
    }

    Set<GroupEntry> groupEntries() {
      return new HashSet<>(wants().groups());
    }

    boolean knows(Host h) {
      return controller.topology().host(h.address()).map(h::equals).orElse(false);
    }
  }

  @Test
  void hostsAndGroupsPutAtOneProcessReachEveryProcess() throws Exception {
    TestingServer zk = track(new TestingServer());
    Process a = process(zk.getConnectString(), true);
    Process b = process(zk.getConnectString(), true);
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
    assertThat(Rest.json(bad).get("error").asText()).contains("unknown switch");
    assertThat(client(zk.getConnectString()).checkExists().forPath("/nps/hosts/fd6e:7073:1::4"))
        .isNull();

    HttpResponse<String> put =
        b.rest()
            .send(
                "PUT",
                groupPath(),
                "{\"members\":[\"fd6e:7073:1::2\",\"fd6e:7073:1::3\"],"
                    + "\"sources\":[\"fd6e:7073:1::1\"]}");
    assertThat(put.statusCode()).as(put.body()).isEqualTo(200);
    poll(() -> !a.groupEntries().isEmpty(), "the group at a");
    assertThat(a.groups().placement(GROUP).get()).isPresent();
    // both want the same multicast flows and groups: neither's reconcile undoes the other's
    poll(
        () ->
            a.multicastFlows().equals(b.multicastFlows())
                && a.groupEntries().equals(b.groupEntries()),
        "a and b agree");
    assertThat(a.multicastFlows()).isNotEmpty();

    // two groups put at once at two processes: both apply both in ZooKeeper's order
    var second =
        java.util.concurrent.CompletableFuture.supplyAsync(
            () -> putGroup(a, "second", "fd6e:7073:1::1", "fd6e:7073:1::3"));
    assertThat(putGroup(b, "third", "fd6e:7073:1::3", "fd6e:7073:1::1")).isEqualTo(200);
    assertThat(second.join()).isEqualTo(200);
    poll(
        () ->
            a.groups().snapshot().join().groups().size() == 3
                && a.multicastFlows().equals(b.multicastFlows())
                && a.groupEntries().equals(b.groupEntries()),
        "a and b agree on three groups");

    Process c = process(zk.getConnectString(), false); // joins later, its switch not yet there
    assertThat(c.knows(h1)).isFalse();
    connectSwitch(c.controller());
    poll(() -> c.knows(h1) && c.knows(h2) && c.knows(h3), "c loaded the hosts");
    // c loads every group (its numbering of segments and entry SIDs may differ from a's: it did
    // not hear the same history; docs/control-plane.md, "Not yet")
    poll(() -> specs(c).equals(specs(a)) && !c.multicastFlows().isEmpty(), "c loaded the groups");

    assertThat(a.rest().send("DELETE", groupPath(), null).statusCode()).isEqualTo(200);
    poll(
        () ->
            specs(b).size() == 2
                && specs(c).equals(specs(b))
                && specs(a).equals(specs(b))
                && a.multicastFlows().equals(b.multicastFlows()),
        "the group gone everywhere");
    assertThat(b.rest().send("DELETE", groupPath(), null).statusCode()).isEqualTo(404);
  }

  /** The groups a process holds, as specified. */
  private static Set<GroupSpec> specs(Process p) {
    Set<GroupSpec> out = new HashSet<>();
    p.groups().snapshot().join().groups().forEach(g -> out.add(g.spec()));
    return out;
  }

  private static int putGroup(Process p, String name, String member, String source) {
    try {
      return p.rest()
          .send(
              "PUT",
              "/v1/groups/" + name,
              "{\"members\":[\"" + member + "\"],\"sources\":[\"" + source + "\"]}")
          .statusCode();
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

  private Process process(String connect, boolean withSwitch) throws Exception {
    NetworkController controller =
        track(NetworkController.start(ControllerConfig.defaults().withPort("127.0.0.1", 0)));
    MulticastGroups groups = MulticastGroups.attach(controller);
    ClusterRegistry registry =
        track(ClusterRegistry.start(client(connect), "/nps", controller, groups));
    ControllerApi api =
        track(
            ControllerApi.start(
                controller,
                Optional.empty(),
                Optional.of(groups),
                Optional.of(registry),
                new InetSocketAddress("::1", 0)));
    if (withSwitch) {
      connectSwitch(controller);
    }
    return new Process(controller, groups, new Rest(api.address().getPort()));
  }

  private void connectSwitch(NetworkController controller) throws Exception {
    SimulatedOpenFlowSwitch sw =
        track(SimulatedOpenFlowSwitch.builder().dpid(DPID).ports(1, 2, 3, 4).build());
    sw.connect(new InetSocketAddress("127.0.0.1", controller.openflowAddress().getPort())).get();
    poll(() -> controller.topology().hasSwitch(DPID), "the switch");
  }

  private CuratorFramework client(String connect) {
    CuratorFramework c =
        CuratorFrameworkFactory.builder()
            .connectString(connect)
            .sessionTimeoutMs(10_000)
            .connectionTimeoutMs(5_000)
            .retryPolicy(new ExponentialBackoffRetry(50, 10))
            .build();
    c.start();
    return track(c);
  }

  private <T extends AutoCloseable> T track(T t) {
    open.add(t);
    return t;
  }

  private static void poll(BooleanSupplier condition, String what) {
    Wait.until(what, Duration.ofSeconds(20), condition);
  }
}
