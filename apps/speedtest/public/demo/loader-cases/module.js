// A module script of the ordering demo: deferred by default, no currentScript (as for any module script).
window.loaderCase ??= { order: [], seen: {}, events: [] };
const state = window.loaderCase;
state.order.push('module');
state.seen.module = { currentScriptIsNull: document.currentScript === null };

export {};
