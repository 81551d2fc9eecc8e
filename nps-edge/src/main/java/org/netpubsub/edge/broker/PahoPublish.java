package org.netpubsub.edge.broker;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.eclipse.paho.mqttv5.client.MqttClient;
import org.eclipse.paho.mqttv5.common.MqttException;
import org.eclipse.paho.mqttv5.common.MqttMessage;

/**
 * A Paho publish that rides out "too many publishes in progress": Paho refuses a publish while the
 * broker's receive maximum of QoS 1 messages awaits acknowledgement, and a burst reaches it.
 */
public final class PahoPublish {
  /** Paho's "too many publishes in progress". */
  private static final int TOO_MANY_IN_FLIGHT = 32202;

  private static final long PATIENCE_NANOS = 5_000_000_000L;

  private PahoPublish() {}

  /**
   * Publishes, retrying while Paho has too many in flight, for at most 5 s or until {@code
   * stopped}; any other failure, or one past that, is thrown.
   */
  public static void publish(MqttClient mqtt, String topic, MqttMessage m, BooleanSupplier stopped)
      throws MqttException {
    long deadline = System.nanoTime() + PATIENCE_NANOS;
    while (true) {
      try {
        mqtt.publish(topic, m);
        return;
      } catch (MqttException e) {
        if (e.getReasonCode() != TOO_MANY_IN_FLIGHT
            || System.nanoTime() > deadline
            || stopped.getAsBoolean()) {
          throw e;
        }
        LockSupport.parkNanos(500_000); // back-pressure, not a wait
      }
    }
  }
}
