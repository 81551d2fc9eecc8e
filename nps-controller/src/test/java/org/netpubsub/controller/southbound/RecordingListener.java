package org.netpubsub.controller.southbound;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.netpubsub.network.openflow.FlowRemoved;

/** Records every southbound event, in order, as text and typed lists. */
final class RecordingListener implements SouthboundListener {
  final List<String> log = new CopyOnWriteArrayList<>();
  final List<Long> connected = new CopyOnWriteArrayList<>();
  final List<DisconnectReason> disconnected = new CopyOnWriteArrayList<>();
  final List<ReconcileResult> reconciled = new CopyOnWriteArrayList<>();
  final List<Throwable> reconcileFailures = new CopyOnWriteArrayList<>();
  final List<PortInfo> portStatus = new CopyOnWriteArrayList<>();
  final List<byte[]> packetIns = new CopyOnWriteArrayList<>();
  final List<FlowRemoved> flowRemoved = new CopyOnWriteArrayList<>();
  final List<SwitchError> errors = new CopyOnWriteArrayList<>();
  final List<String> threads = new CopyOnWriteArrayList<>();

  private void note(String event) {
    log.add(event);
    threads.add(Thread.currentThread().getName());
  }

  @Override
  public void switchConnected(SwitchHandle sw) {
    connected.add(sw.dpid());
    note("connected " + sw.dpid());
  }

  @Override
  public void switchDisconnected(long dpid, DisconnectReason reason) {
    disconnected.add(reason);
    note("disconnected " + dpid + " " + reason);
  }

  @Override
  public void switchReconciled(long dpid, ReconcileResult result) {
    reconciled.add(result);
    note("reconciled " + dpid);
  }

  @Override
  public void reconcileFailed(long dpid, Throwable cause) {
    reconcileFailures.add(cause);
    note("reconcile failed " + dpid + " " + cause);
  }

  @Override
  public void portStatus(long dpid, PortInfo port, PortReason reason) {
    portStatus.add(port);
    note("port " + dpid + " " + port.number() + " " + reason + (port.up() ? " up" : " down"));
  }

  @Override
  public void packetIn(
      long dpid, long inPort, PacketInReason reason, int tableId, long cookie, byte[] frame) {
    packetIns.add(frame);
    note(
        "packet-in "
            + dpid
            + " in_port="
            + inPort
            + " "
            + reason
            + " table="
            + tableId
            + " cookie="
            + cookie);
  }

  @Override
  public void flowRemoved(long dpid, FlowRemoved removed) {
    flowRemoved.add(removed);
    note("flow-removed " + dpid + " " + removed.reason());
  }

  @Override
  public void error(long dpid, SwitchError error) {
    errors.add(error);
    note("error " + dpid + " " + error);
  }
}
