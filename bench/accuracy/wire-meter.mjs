// What the link itself carried while an engine ran: the router's transmitted bytes towards the client (downloads) and
// towards the server (uploads), polled every 10 ms from /proc/PID/net/dev of the link emulator (a process in the
// router's namespace, so no process is started per poll). Beside our engine's figure window it splits a run's error
// into the link's part (did the streams fill it, or did the lab's path slow down?) and the measurement's part (what
// the page read against what crossed the wire in the same intervals): see wire-series.mjs `windowOnWire`.
import { readFileSync } from 'node:fs';
import { routerTxBytes } from './wire-series.mjs';

const pollEveryMs = 10;

/**
 * Starts polling the router namespace of the process `pid`; `stop()` returns both series ([epochMs, bytes], in time
 * order), empty where the counters cannot be read (no /proc, the process gone).
 * @param {number | undefined} pid
 */
export function startWireMeter(pid) {
  /** @type {[number, number][]} */
  const down = [];
  /** @type {[number, number][]} */
  const up = [];
  const poll = () => {
    if (pid === undefined) return;
    try {
      const bytes = routerTxBytes(readFileSync(`/proc/${pid}/net/dev`, 'utf8'));
      const nowMs = Date.now();
      if (Number.isFinite(bytes.down)) down.push([nowMs, bytes.down]);
      if (Number.isFinite(bytes.up)) up.push([nowMs, bytes.up]);
    } catch {
      // The counters are a diagnostic: a run without them reports the wire as n/a.
    }
  };
  poll();
  const timer = setInterval(poll, pollEveryMs);
  return {
    stop() {
      clearInterval(timer);
      poll();
      return { down, up };
    },
  };
}
