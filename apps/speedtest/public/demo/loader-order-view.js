// Shows the ordering demo's outcome on the page: the order its scripts ran in and the events that fired, as
// loader-cases/*.js record them in window.loaderCase. Only reads that record, after the load event, so it changes
// nothing it shows.
const expectedEvents = 4;
const output = document.querySelector('#order-result');

function list(items) {
  const ol = document.createElement('ol');
  for (const item of items) {
    const li = document.createElement('li');
    li.textContent = item;
    ol.append(li);
  }
  return ol;
}

function show() {
  const state = window.loaderCase ?? { order: [], events: [] };
  const order = document.createElement('h2');
  order.textContent = 'Scripts, in the order they ran';
  const events = document.createElement('h2');
  events.textContent = 'Events, in the order they fired';
  output.replaceChildren(order, list(state.order), events, list(state.events));
  output.dataset.ready = 'true';
}

function whenSettled() {
  // The load and error events of the last scripts can come after window's load; wait for all four, briefly.
  const startedMs = performance.now();
  const poll = () => {
    if ((window.loaderCase?.events.length ?? 0) >= expectedEvents || performance.now() - startedMs > 3000) show();
    else setTimeout(poll, 50);
  };
  poll();
}

if (document.readyState === 'complete') whenSettled();
else window.addEventListener('load', whenSettled, { once: true });
