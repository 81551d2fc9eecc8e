package org.netpubsub.controller.southbound;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.netpubsub.network.openflow.FlowRemoved;

/**
 * Records every southbound event, in order, as text and typed lists (the text first: a test that
 * saw an event in a typed list finds it in the log).
 */
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
    note("connected " + sw.dpid());
    connected.add(sw.dpid());
  }

  @Override
  public void switchDisconnected(long dpid, DisconnectReason reason) {
    note("disconnected " + dpid + " " + reason);
    disconnected.add(reason);
  }

  @Override
  public void switchReconciled(long dpid, ReconcileResult result) {
    note("reconciled " + dpid);
    reconciled.add(result);
  }

  @Override
  public void reconcileFailed(long dpid, Throwable cause) {
    note("reconcile failed " + dpid + " " + cause);
    reconcileFailures.add(cause);
  }

  @Override
  public void portStatus(long dpid, PortInfo port, PortReason reason) {
    note("port " + dpid + " " + port.number() + " " + reason + (port.up() ? " up" : " down"));
    portStatus.add(port);
  }

  @Override
  public void packetIn(
      long dpid, long inPort, PacketInReason reason, int tableId, long cookie, byte[] frame) {
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
    packetIns.add(frame);
  }

  @Override
  public void flowRemoved(long dpid, FlowRemoved removed) {
    note("flow-removed " + dpid + " " + removed.reason());
    flowRemoved.add(removed);
  }

  @Override
  public void error(long dpid, SwitchError error) {
    note("error " + dpid + " " + error);
    errors.add(error);
  }
}
