/** How many listeners `target` has for `type` (Node's `events.getEventListeners`). */
export function listenerCount(target: EventTarget, type: string): number;
