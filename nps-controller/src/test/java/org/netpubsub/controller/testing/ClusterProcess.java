package org.netpubsub.controller.testing;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.framework.CuratorFramework;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.controller.app.ControllerConfig;
import org.netpubsub.controller.controlplane.ClusterSettings;
import org.netpubsub.controller.pubsub.ClusterIngress;
import org.netpubsub.controller.pubsub.PubSubLimits;
import org.netpubsub.controller.pubsub.PubSubService;
import org.netpubsub.network.controlplane.Partitions;
import org.netpubsub.network.layout.SwitchLayout;
import org.netpubsub.network.openflow.FlowEntry;

/**
 * One controller process of a cluster, as the ingress tests run it (ClusterIngressTest,
 * ClusterIngressFenceTest): its own simulated switch (dpid and ports alike in every process, so
 * what a process wrote is what its switch holds), pub/sub attached to the cluster under {@code
 * /nps} with four partitions, and the cluster's ingress part, whose writing turns the reconciles'
 * ingress scope on.
 */
public record ClusterProcess(
    CuratorFramework zk, OneSwitchNetwork net, PubSubService service, ClusterIngress ingress) {

  /**
   * Starts member {@code member} on {@code client} (a started client, closed by the caller) and
   * connects its switch; what it opens goes to {@code in}, to be closed in reverse order.
   */
  public static ClusterProcess start(
      CuratorFramework client, String member, Schema schema, List<AutoCloseable> in)
      throws Exception {
    AtomicBoolean writes = new AtomicBoolean();
    OneSwitchNetwork net =
        keep(
            in,
            OneSwitchNetwork.startController(
                ControllerConfig.defaults()
                    .withReconcileScope(
                        PubSubService.clusterReconcileScope(() -> true, writes::get))));
    PubSubService service =
        PubSubService.attachCluster(
            net.controller(),
            new SpatialIndex(schema, 12),
            PubSubLimits.DEFAULTS,
            new ClusterSettings(
                client, "/nps", member, Partitions.uniform(4), Duration.ofSeconds(5)));
    keep(in, service::close);
    ClusterIngress ingress =
        keep(
            in,
            ClusterIngress.start(
                client,
                "/nps",
                member,
                net.controller(),
                net.controller().server()::switchHandle,
                writes));
    net.connectSwitch(4);
    return new ClusterProcess(client, net, service, ingress);
  }

  /** The ingress drops the process's switch holds. */
  public List<FlowEntry> drops() {
    return net.sw().flows().stream()
        .filter(f -> f.cookie() == SwitchLayout.INGRESS_COOKIE)
        .toList();
  }

  private static <T extends AutoCloseable> T keep(List<AutoCloseable> in, T t) {
    in.add(t);
    return t;
  }
}
