// What the Speed Page compares. Every Worker variant is a chain of the standalone Workers a site owner deploys
// (`wrangler dev --env <capability>` with the origin set), behind the HTTP/2 front from the priority lab, which
// honours the priority Worker's headers; "origin direct" is the site as it is, over plain HTTP/1.1.

/** Where the BinaryAST loader's files are served on the site (see origin-bridge.mjs). */
export const loaderUrl = '/__speedkit/binast/binast-loader.min.js';

/**
 * @typedef {{ env: 'images' | 'priority' | 'binast', vars?: Record<string, string> }} WorkerHop
 * @typedef {{ id: string, label: string, feature: string | null, hops: WorkerHop[] }} Variant
 */

/** The images Worker with negotiation confined to a path no page has: a pure proxy, the cost of the hop alone. */
/** @type {WorkerHop} */
const passThrough = { env: 'images', vars: { IMAGES_ROUTES: '/__speedkit-none/' } };
/** @type {WorkerHop} */
const images = { env: 'images' };
/** @type {WorkerHop} */
const priority = { env: 'priority' };
/** @type {WorkerHop} */
const binast = { env: 'binast', vars: { BINAST_REWRITE_LOADER: loaderUrl } };

/** @type {Variant[]} in report order; `feature` names what --features selects */
export const allVariants = [
  { id: 'origin', label: 'Origin direct', feature: null, hops: [] },
  { id: 'worker-off', label: 'Worker, all off', feature: null, hops: [passThrough] },
  { id: 'images', label: 'Image negotiation', feature: 'images', hops: [images] },
  { id: 'priority', label: 'Priority headers', feature: 'priority', hops: [priority] },
  { id: 'binast', label: 'BinAST + loader', feature: 'binast', hops: [binast] },
  // Priority outermost: its headers must describe the bytes actually sent, i.e. after image negotiation.
  { id: 'all', label: 'All on', feature: 'all', hops: [priority, images, binast] },
];

export const featureNames = ['images', 'priority', 'binast', 'all'];

/**
 * The variants to run: origin direct and Worker-all-off always, then the selected features.
 * @param {string[]} features @returns {Variant[]}
 */
export function selectVariants(features) {
  for (const name of features) {
    if (!featureNames.includes(name)) {
      throw new Error(`unknown feature "${name}": choose from ${featureNames.join(', ')}`);
    }
  }
  return allVariants.filter((variant) => variant.feature === null || features.includes(variant.feature));
}
