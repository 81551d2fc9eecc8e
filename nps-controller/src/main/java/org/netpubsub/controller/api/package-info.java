/**
 * The controller's REST API on the shared HTTP layer (nps-http): routes, their JSON, the OpenAPI
 * document and the controller's metrics. It sits above the apps: it uses app, pubsub and multicast,
 * and none of them uses it.
 */
package org.netpubsub.controller.api;
