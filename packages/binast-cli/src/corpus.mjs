// The real-library corpus shared by the round-trip tests, the benchmark and the demo site: installed npm packages,
// so every run reads the same bytes without network access.
import { fileURLToPath } from 'node:url';

const nodeModules = fileURLToPath(new URL('../../../node_modules/', import.meta.url));

/**
 * @typedef {object} CorpusFile
 * @property {string} name short label for tables
 * @property {string} path absolute path
 * @property {boolean} demo runs stand-alone in a browser (UMD/global), so the demo site serves it
 */

/** @type {CorpusFile[]} */
export const libraries = [
  ['react', 'react/cjs/react.production.js', false],
  ['react-dom', 'react-dom/cjs/react-dom-client.production.js', false],
  ['d3', 'd3/dist/d3.min.js', true],
  ['angular', 'angular/angular.min.js', true],
  ['babel', '@babel/standalone/babel.min.js', false],
  ['underscore', 'underscore/underscore-umd-min.js', true],
  ['backbone', 'backbone/backbone-min.js', true],
  ['fuzzball', 'fuzzball/dist/fuzzball.umd.min.js', true],
  ['lodash', 'lodash/lodash.min.js', true],
].map(([name, file, demo]) => ({
  name: String(name),
  path: `${nodeModules}${file}`,
  demo: Boolean(demo),
}));

/**
 * A second corpus, picked after the context layout's models were tuned on `libraries` (2026-11-24) and never used
 * to tune them: how the format does on code it has not seen. Minified builds as sites ship them; module builds
 * (preact) are parsed as modules.
 * @type {(CorpusFile & { sourceType: 'script' | 'module' })[]}
 */
export const unseenLibraries = [
  ['jquery', 'jquery/dist/jquery.min.js', 'script'],
  ['vue', 'vue/dist/vue.global.prod.js', 'script'],
  ['moment', 'moment/min/moment.min.js', 'script'],
  ['immutable', 'immutable/dist/immutable.min.js', 'script'],
  ['rxjs', 'rxjs/dist/bundles/rxjs.umd.min.js', 'script'],
  ['handlebars', 'handlebars/dist/handlebars.min.js', 'script'],
  ['axios', 'axios/dist/axios.min.js', 'script'],
  ['marked', 'marked/lib/marked.umd.js', 'script'],
  ['preact', 'preact/dist/preact.mjs', 'module'],
  ['chart.js', 'chart.js/dist/chart.umd.min.js', 'script'],
].map(([name, file, sourceType]) => ({
  name: String(name),
  path: `${nodeModules}${file}`,
  demo: false,
  sourceType: sourceType === 'module' ? 'module' : 'script',
}));

/** The test262 parser tests that must parse (pass/), each a script or, for `*.module.js`, a module. */
export const test262PassDir = `${nodeModules}test262-parser-tests/pass`;
