/** The media type a client asks for in `Accept` and the Worker answers with. */
export const binastMediaType = 'application/javascript-binast';
