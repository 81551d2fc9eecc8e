/**
 * Pure AMQP 0-9-1 rules the edge needs: topic-exchange matching and its mapping onto the
 * coordinator's (MQTT) topic-filter model (docs/edge.md).
 */
package org.netpubsub.edge.amqp;
