/**
 * The SNAPS edge coordinator (paper §II-C, steps 2a–5b, for MQTT): edges register, report the topic
 * filters present at their brokers, ask for routes, and long-poll for changes. Pure state ({@link
 * org.netpubsub.edge.coordinator.CoordinatorState}) apart from the adapters: SQL store, REST API,
 * network controller client. See docs/edge.md.
 */
package org.netpubsub.edge.coordinator;
