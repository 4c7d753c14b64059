/**
 * The media type of BinaryAST responses, and what a client lists in `Accept` to ask for one. A wildcard does not
 * count: a client without a decoder sends `*\/*` too, and BinaryAST is useless to it.
 */
export const binastMediaType = 'application/javascript-binast';
