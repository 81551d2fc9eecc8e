// The dashboard's bearer token, loaded before app.js, which reads the controller with
// fetchOptions().
'use strict';

/**
 * The bearer token of a controller run with --auth (docs/security-rest.md, "The dashboard's token"):
 * given once in the URL fragment (/#token=T, which browsers neither send nor log), then kept in
 * this tab's sessionStorage and removed from the address bar.
 */
function token() {
  const m = /(?:^#|&)token=([^&]+)/.exec(location.hash);
  if (m) {
    sessionStorage.setItem('nps-token', decodeURIComponent(m[1]));
    history.replaceState(null, '', location.pathname + location.search);
  }
  return sessionStorage.getItem('nps-token');
}

const TOKEN = token();

/** fetch() options: no caching, and the token when there is one. */
function fetchOptions() {
  return TOKEN ? {cache: 'no-store', headers: {Authorization: `Bearer ${TOKEN}`}} : {cache: 'no-store'};
}
