// One step of the ordering demo: records its name (from currentScript) and what it could see when it ran.
(() => {
  window.loaderCase ??= { order: [], seen: {}, events: [] };
  const state = window.loaderCase;
  const script = document.currentScript;
  const name = script ? script.dataset.name : 'no-currentScript';
  state.order.push(name);
  state.seen[name] = { lodash: typeof _, src: script ? script.src : null };
})();
