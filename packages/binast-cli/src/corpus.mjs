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

/** The test262 parser tests that must parse (pass/), each a script or, for `*.module.js`, a module. */
export const test262PassDir = `${nodeModules}test262-parser-tests/pass`;
