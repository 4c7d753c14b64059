// How the HTTP/2 front (h2-server.mjs) reaches its upstream, `wrangler dev`: kept-alive connections that the front
// lets go of before the upstream would close them, a bodiless request sent once more on a new connection when the
// upstream dropped it without an answer (the answer then says so), and a 502 that says it is the front's own when
// there is still none.
import http from 'node:http';

// wrangler dev (workerd) closes a connection idle for 15 s. A request written to it as it closes is lost with no
// answer (ECONNRESET, "socket hang up"), and the Speed Page lab's rotation of six variants comes back to one front
// about 15 s after its previous load. The front closes its own idle connections well before.
export const idleTimeoutMs = 4000;

/** Marks a 502 the front made itself (no answer from upstream), with the reason: the lab's, not the site's. */
export const labErrorHeader = 'x-speedkit-lab-error';
/** Marks an answer that came on the second try, with why the first got none: the lab's delay, not the site's. */
export const labRetryHeader = 'x-speedkit-lab-retried';

const agent = new http.Agent({ keepAlive: true, maxSockets: 32, timeout: idleTimeoutMs });
// Only these are sent again: they have no body to replay, and repeating them is harmless (RFC 9110 §9.2.2).
const retriable = new Set(['GET', 'HEAD']);

/**
 * Sends a request upstream. `onResponse` gets the answer, and why the first try got none when it came on the second;
 * `onFail` gets a sentence when there is none (the upstream's error, how long after the request, whether it was
 * tried again). Both a retry and a failure are written to the front's log here.
 * @param {http.RequestOptions & { method: string }} options host, port, path, method, headers (no agent)
 * @param {(response: http.IncomingMessage, retriedAfter?: string) => void} onResponse
 * @param {(reason: string) => void} onFail
 * @returns {http.ClientRequest} the first try, for the body to be piped into
 */
export function requestUpstream(options, onResponse, onFail) {
  const startMs = performance.now();
  let answered = false;
  // Said in the front's log as well as to the caller, who answers 502 with it.
  const fail = (/** @type {string} */ reason) => {
    process.stderr.write(`502 ${options.method} ${options.path}: ${reason}\n`);
    onFail(reason);
  };
  const first = http.request({ ...options, agent }, (response) => {
    answered = true;
    onResponse(response);
  });
  first.on('error', (error) => {
    const reused = first.reusedSocket ? ', on a reused connection' : '';
    if (answered || !retriable.has(options.method)) {
      fail(`${failure(error, startMs)}${reused}`);
      return;
    }
    // Dropped with nothing answered: a kept-alive connection the upstream closed as the request was written (or
    // whatever else ended it: the lab cannot tell). Sent again, alone on a new connection: another idle one may
    // have been closed at the same moment.
    const firstTry = `${failure(error, startMs)}${reused}`;
    const again = http.request({ ...options, agent: false }, (response) => {
      process.stderr.write(`retried ${options.method} ${options.path}: ${firstTry}\n`);
      onResponse(response, firstTry);
    });
    again.on('error', (retryError) => fail(`${failure(retryError, startMs)}; the first try: ${firstTry}`));
    again.end();
  });
  return first;
}

/** @param {Error & { code?: string }} error @param {number} startMs */
const failure = (error, startMs) =>
  `upstream ${errorText(error)} after ${Math.round(performance.now() - startMs)} ms, no answer`;

/** An upstream error's code and message. @param {Error & { code?: string }} error */
const errorText = (error) => `${error.code ?? 'error'} (${error.message})`;
