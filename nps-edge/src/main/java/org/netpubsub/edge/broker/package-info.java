/**
 * The SNAPS edge agent for MQTT (paper §II): an unmodified Mosquitto plus this agent. Agent-Sub
 * takes every message published at the local broker and sends it as UDP datagrams to the routes the
 * edge coordinator gives; Agent-Pub publishes what arrives into the local broker. Pure parts
 * (datagram codec, broker log parsing, local subscription table, route cache) are separate from the
 * adapters (MQTT connection, UDP socket, coordinator client). See docs/edge.md.
 */
package org.netpubsub.edge.broker;
