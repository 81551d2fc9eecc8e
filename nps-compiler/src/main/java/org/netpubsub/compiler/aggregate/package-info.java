/**
 * Stateful packet subscriptions (Camus §2): a conjunction with aggregate atoms ({@code count() > 2
 * over 100ms}) reaches its leaf as conditional actions, each a port guarded by the atoms and the
 * register slots that hold their tumbling windows. Stateful targets evaluate them at the last hop;
 * stateless ones forward to the port (a superset).
 */
package org.netpubsub.compiler.aggregate;
