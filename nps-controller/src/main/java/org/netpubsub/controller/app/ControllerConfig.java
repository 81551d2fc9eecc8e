package org.netpubsub.controller.app;

import java.util.List;
import java.util.function.LongSupplier;
import org.netpubsub.controller.nbi.ControllerApp;
import org.netpubsub.controller.nbi.DistributionMode;
import org.netpubsub.controller.nbi.RemoteAppEndpoints;
import org.netpubsub.controller.nbi.RemoteAppKeys;
import org.netpubsub.controller.southbound.OpenFlowTls;
import org.netpubsub.controller.southbound.ReconcileScope;

/**
 * A {@link NetworkController}'s settings: where to listen, how often to probe, the clock
 * (milliseconds), how the northbound bus distributes packet-ins and where remote apps connect to it
 * (null: no remote apps) with their CURVE keys (null: unauthenticated), how unicast is forwarded,
 * the apps that run on the bus besides the core's, what reconciling a switch manages, and
 * OpenFlow's TLS settings (null: plain TCP) and a restart's hold on reconciles (null: none).
 */
public record ControllerConfig(
    String bindAddress,
    int openflowPort,
    long probeIntervalMillis,
    LongSupplier clock,
    DistributionMode northbound,
    RemoteAppEndpoints remoteApps,
    RemoteAppKeys remoteKeys,
    NetworkController.Forwarding forwarding,
    List<ControllerApp> apps,
    ReconcileScope reconcileScope,
    OpenFlowTls openflowTls,
    RestartHold restartHold) {
  public ControllerConfig {
    apps = List.copyOf(apps);
    if (reconcileScope == null) {
      throw new IllegalArgumentException("a reconcile scope is required");
    }
  }

  public static ControllerConfig defaults() {
    return new ControllerConfig(
        "0.0.0.0",
        6653,
        5_000,
        System::currentTimeMillis,
        DistributionMode.CLASSIFIED,
        null,
        null,
        NetworkController.Forwarding.ROUTED,
        List.of(),
        ReconcileScope.EVERYTHING,
        null,
        null);
  }

  public ControllerConfig withPort(String address, int port) {
    return new ControllerConfig(
        address,
        port,
        probeIntervalMillis,
        clock,
        northbound,
        remoteApps,
        remoteKeys,
        forwarding,
        apps,
        reconcileScope,
        openflowTls,
        restartHold);
  }

  public ControllerConfig withProbeInterval(long millis) {
    return new ControllerConfig(
        bindAddress,
        openflowPort,
        millis,
        clock,
        northbound,
        remoteApps,
        remoteKeys,
        forwarding,
        apps,
        reconcileScope,
        openflowTls,
        restartHold);
  }

  public ControllerConfig withNorthbound(DistributionMode mode, RemoteAppEndpoints remote) {
    return withNorthbound(mode, remote, null);
  }

  /** Remote apps authenticated by CURVE with {@code keys} (null: anyone who reaches them). */
  public ControllerConfig withNorthbound(
      DistributionMode mode, RemoteAppEndpoints remote, RemoteAppKeys keys) {
    return new ControllerConfig(
        bindAddress,
        openflowPort,
        probeIntervalMillis,
        clock,
        mode,
        remote,
        keys,
        forwarding,
        apps,
        reconcileScope,
        openflowTls,
        restartHold);
  }

  public ControllerConfig withForwarding(
      NetworkController.Forwarding how, List<ControllerApp> busApps) {
    return new ControllerConfig(
        bindAddress,
        openflowPort,
        probeIntervalMillis,
        clock,
        northbound,
        remoteApps,
        remoteKeys,
        how,
        busApps,
        reconcileScope,
        openflowTls,
        restartHold);
  }

  /**
   * What reconciling a switch to its desired state manages (default everything). A controller
   * process of a cluster manages only its share: the flows other processes write are left alone.
   */
  public ControllerConfig withReconcileScope(ReconcileScope scope) {
    return new ControllerConfig(
        bindAddress,
        openflowPort,
        probeIntervalMillis,
        clock,
        northbound,
        remoteApps,
        remoteKeys,
        forwarding,
        apps,
        scope,
        openflowTls,
        restartHold);
  }

  /** Serves OpenFlow over mutual TLS (null: plain TCP, the default). */
  public ControllerConfig withOpenflowTls(OpenFlowTls tls) {
    return new ControllerConfig(
        bindAddress,
        openflowPort,
        probeIntervalMillis,
        clock,
        northbound,
        remoteApps,
        remoteKeys,
        forwarding,
        apps,
        reconcileScope,
        tls,
        restartHold);
  }

  /**
   * Holds reconciles after a restart until the stored requests and topology are back (null: none,
   * the default; docs/controller.md, "Restart").
   */
  public ControllerConfig withRestartHold(RestartHold hold) {
    return new ControllerConfig(
        bindAddress,
        openflowPort,
        probeIntervalMillis,
        clock,
        northbound,
        remoteApps,
        remoteKeys,
        forwarding,
        apps,
        reconcileScope,
        openflowTls,
        hold);
  }
}
