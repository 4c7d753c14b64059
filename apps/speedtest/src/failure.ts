import type { Phase } from '@speedkit/speedtest';

const endpointOf: Record<Phase, string> = {
  latency: 'GET /__down?bytes=0 (latency probe)',
  download: 'GET /__down (download)',
  upload: 'POST /__up (upload)',
  loss: 'GET /turn-creds and the TURN relay (packet loss)',
};

/**
 * Pure: turns an engine failure into a sentence a user can act on: what was tried, against which server, and what to
 * check. The browser's own message ("Failed to fetch") is kept at the end for anyone reporting the problem.
 */
export function explainFailure(message: string, phase: Phase, serverUrl: string, pageOrigin: string): string {
  const server = serverUrl || pageOrigin;
  const tried = `${endpointOf[phase]} on ${server}`;
  const status = /\b([45]\d\d)\b/.exec(message)?.[1];
  let check: string;
  if (/^the server (sent|received) (no data|only \d+ bytes) in/.test(message)) {
    // No 0 kbps figure: a transfer that moved (almost) nothing says nothing about the link's rate.
    check =
      'The requests were accepted but (almost) no bytes moved, so there is no rate to report: a proxy, firewall or the server itself held the transfer back. Start again; if it keeps happening, check the server.';
  } else if (status === '503') {
    check = 'The server answered 503 (busy or restarting): wait a moment and start again.';
  } else if (status) {
    check = `The server answered ${status}: check that it runs speedkit's endpoints (/__down, /__up) at that address.`;
  } else if (/fetch|network|load failed/i.test(message)) {
    check =
      serverUrl && !serverUrl.startsWith(pageOrigin)
        ? "Check that the server is up, reachable from this network, allows cross-origin requests (Access-Control-Allow-Origin), and that this page's Content-Security-Policy lets it connect there (connect-src)."
        : 'Check your connection, that the server is up, and that no proxy, firewall or extension blocks it.';
  } else {
    check = 'Start again; if it keeps failing, report the message below.';
  }
  return `The test failed while trying ${tried}. ${check} (Browser said: ${message})`;
}
