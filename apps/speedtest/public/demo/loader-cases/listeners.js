// Registers DOMContentLoaded and load listeners the way a blocking script in <head> does: they must fire once each.
(() => {
  window.loaderCase ??= { order: [], seen: {}, events: [] };
  const state = window.loaderCase;
  state.order.push('listeners');
  document.addEventListener('DOMContentLoaded', () => state.events.push('DOMContentLoaded'));
  window.addEventListener('load', () => state.events.push('load'));
})();
