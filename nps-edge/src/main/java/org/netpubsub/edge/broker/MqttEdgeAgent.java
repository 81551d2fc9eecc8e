package org.netpubsub.edge.broker;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.URI;
import java.util.List;
import java.util.Set;
import org.eclipse.paho.mqttv5.common.MqttException;
import org.eclipse.paho.mqttv5.common.MqttMessage;

/**
 * {@link EdgeAgent} beside Mosquitto, on one {@link LocalBroker} connection: Paho's callback thread
 * runs Agent-Sub (into {@link AgentCore#forward}) and turns the broker log into filter reports;
 * {@link AgentCore} does the rest.
 */
final class MqttEdgeAgent extends CoreBackedAgent<LocalSubscriptions>
    implements LocalBroker.Listener, AgentCore.Local {
  private final LocalBroker mqtt;
  private final URI broker;

  private MqttEdgeAgent(EdgeAgent.Builder b, DatagramSocket socket) throws MqttException {
    super(
        new AgentCore<>(
            b,
            socket,
            new LocalSubscriptions(Set.of(clientId(b)), MqttRetainedStore.clientIdPrefix(b.edge))));
    this.broker = b.broker;
    this.mqtt = new LocalBroker(b.broker, clientId(b), this);
  }

  private static String clientId(EdgeAgent.Builder b) {
    return "nps-edge-agent-" + b.edge;
  }

  static EdgeAgent start(EdgeAgent.Builder b) throws IOException {
    DatagramSocket socket = AgentCore.bind(b.listen);
    MqttEdgeAgent a = null;
    try {
      a = new MqttEdgeAgent(b, socket);
      a.core.register(a);
      a.mqtt.connect();
      a.core.start();
      return a;
    } catch (MqttException e) {
      closeQuietly(a, socket);
      throw new IOException("cannot connect to the broker " + b.broker + ": " + e.getMessage(), e);
    } catch (IOException | RuntimeException e) {
      closeQuietly(a, socket);
      throw e;
    }
  }

  private static void closeQuietly(MqttEdgeAgent a, DatagramSocket socket) {
    if (a != null) {
      a.close();
    } else {
      socket.close();
    }
  }

  // ---- Agent-Sub (Paho's callback thread) ----

  @Override
  public void onMessage(String topic, MqttMessage message) {
    core.forward(topic, message.getPayload(), message.getQos(), message.isRetained());
  }

  @Override
  public void onLogEvent(BrokerEvent event) {
    core.reporter().update(local -> local.apply(event));
  }

  @Override
  public void failed(String topic, RuntimeException e) {
    core.failed(topic, e);
  }

  // ---- Agent-Pub (the core's receiver thread) ----

  @Override
  public void publish(EdgeMessage m) throws MqttException {
    mqtt.publish(m);
  }

  @Override
  public List<EdgeMessage> retained() throws Exception {
    return MqttRetainedStore.read(broker, core.edge);
  }

  // ---- EdgeAgent ----

  @Override
  public void close() {
    if (core.closed()) {
      return;
    }
    mqtt.close();
    core.close();
  }
}
