package org.netpubsub.edge.broker;

import java.io.Closeable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.paho.mqttv5.client.IMqttToken;
import org.eclipse.paho.mqttv5.client.MqttCallback;
import org.eclipse.paho.mqttv5.client.MqttClient;
import org.eclipse.paho.mqttv5.client.MqttConnectionOptions;
import org.eclipse.paho.mqttv5.client.MqttDisconnectResponse;
import org.eclipse.paho.mqttv5.client.persist.MemoryPersistence;
import org.eclipse.paho.mqttv5.common.MqttException;
import org.eclipse.paho.mqttv5.common.MqttMessage;
import org.eclipse.paho.mqttv5.common.MqttSubscription;
import org.eclipse.paho.mqttv5.common.packet.MqttProperties;

/** An ordinary MQTT 5 client (Paho) that records what it receives, as the tests' clients. */
public final class TestClient implements Closeable, MqttCallback {
  /** One received message: what a subscriber can observe. */
  public record Received(String topic, String payload, boolean retain) {}

  private final MqttClient client;
  private final List<Received> received = new ArrayList<>();
  private final List<Long> arrivals = new ArrayList<>(); // System.nanoTime() of each

  public TestClient(String brokerUri, String id) throws MqttException {
    client = new MqttClient(brokerUri, id, new MemoryPersistence());
    client.setCallback(this);
    MqttConnectionOptions o = new MqttConnectionOptions();
    o.setCleanStart(true);
    client.connect(o);
  }

  public void subscribe(String filter, int qos) throws MqttException {
    client.subscribe(new MqttSubscription[] {new MqttSubscription(filter, qos)});
  }

  public void unsubscribe(String filter) throws MqttException {
    client.unsubscribe(filter);
  }

  public void publish(String topic, String payload, int qos, boolean retain) throws MqttException {
    MqttMessage m = new MqttMessage(payload.getBytes(StandardCharsets.UTF_8));
    m.setQos(qos);
    m.setRetained(retain);
    PahoPublish.publish(client, topic, m, () -> false); // a burst meets Paho's in-flight limit
  }

  public synchronized List<Received> received() {
    return List.copyOf(received);
  }

  /** When each message of {@link #received} arrived ({@link System#nanoTime}). */
  public synchronized List<Long> arrivals() {
    return List.copyOf(arrivals);
  }

  @Override
  public synchronized void messageArrived(String topic, MqttMessage message) {
    arrivals.add(System.nanoTime());
    received.add(
        new Received(
            topic, new String(message.getPayload(), StandardCharsets.UTF_8), message.isRetained()));
  }

  @Override
  public void close() {
    try {
      if (client.isConnected()) {
        client.disconnect(2000);
      }
      client.close(true);
    } catch (MqttException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void disconnected(MqttDisconnectResponse r) {}

  @Override
  public void mqttErrorOccurred(MqttException e) {}

  @Override
  public void deliveryComplete(IMqttToken token) {}

  @Override
  public void connectComplete(boolean reconnect, String serverUri) {}

  @Override
  public void authPacketArrived(int reasonCode, MqttProperties properties) {}
}
