package org.netpubsub.controller.nbi;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.netpubsub.controller.southbound.BatchResult;
import org.netpubsub.controller.southbound.PortCounters;
import org.netpubsub.controller.southbound.PortInfo;
import org.netpubsub.controller.southbound.SwitchHandle;
import org.netpubsub.controller.southbound.SwitchMod;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.GroupEntry;

/** A switch handle that records what the bus sends it and acknowledges every batch. */
final class RecordingSwitch implements SwitchHandle {
  record PacketOut(long inPort, List<Action> actions, byte[] frame) {}

  final long dpid;
  final List<PacketOut> packetOuts = new CopyOnWriteArrayList<>();
  final List<SwitchMod> mods = new CopyOnWriteArrayList<>();

  RecordingSwitch(long dpid) {
    this.dpid = dpid;
  }

  @Override
  public long dpid() {
    return dpid;
  }

  @Override
  public int numTables() {
    return 1;
  }

  @Override
  public List<PortInfo> ports() {
    return List.of();
  }

  @Override
  public SocketAddress remoteAddress() {
    return InetSocketAddress.createUnresolved("recording", 0);
  }

  @Override
  public boolean isConnected() {
    return true;
  }

  @Override
  public CompletableFuture<BatchResult> apply(List<SwitchMod> batch) {
    mods.addAll(batch);
    return CompletableFuture.completedFuture(new BatchResult(dpid, batch.size(), Duration.ZERO));
  }

  @Override
  public CompletableFuture<Void> packetOut(long inPort, List<Action> actions, byte[] frame) {
    packetOuts.add(new PacketOut(inPort, actions, frame));
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public CompletableFuture<List<FlowEntry>> flowStats() {
    return CompletableFuture.completedFuture(List.of());
  }

  @Override
  public CompletableFuture<List<GroupEntry>> groupDesc() {
    return CompletableFuture.completedFuture(List.of());
  }

  @Override
  public CompletableFuture<List<PortInfo>> portDescriptions() {
    return CompletableFuture.completedFuture(List.of());
  }

  @Override
  public CompletableFuture<List<PortCounters>> portStats() {
    return CompletableFuture.completedFuture(List.of());
  }

  @Override
  public void disconnect() {}
}
