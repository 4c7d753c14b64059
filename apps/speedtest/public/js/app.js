// The example script of the README's "Embedding the BinaryAST loader" snippet, so the snippet works as written against
// `npm start` (e2e/readme-snippet.spec.ts builds a page from the snippet's text). A site's own scripts replace it.
(() => {
  const greeting = ['Hello', 'from', '/js/app.js'].join(' ');
  document.documentElement.dataset.exampleApp = 'ran';
  window.exampleApp = { greeting, ranAt: performance.now() };
})();
