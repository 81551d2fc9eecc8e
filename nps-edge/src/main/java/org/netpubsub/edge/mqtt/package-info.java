/**
 * Pure MQTT rules shared by the edge agent and the edge coordinator: topic names, topic filters and
 * how they match (MQTT 5.0 §4.7). No I/O.
 */
package org.netpubsub.edge.mqtt;
