// Fills the savings table and each caption from what actually arrived: original bytes (the source, fetched again with
// an Accept header the Worker does not convert for), served bytes (Resource Timing of this load) and the format.
const originalAccept = 'image/jpeg,image/png,image/gif';
const cdnPrefix = /^\/cdn-cgi\/image\/[^/]+/;
const numberFormat = new Intl.NumberFormat('en');
// A no-break space keeps the unit with its number when the total's cell wraps before its percentage.
const bytesText = (bytes) => `${numberFormat.format(bytes)}\u00a0B`;

function loaded(image) {
  return image.complete && image.naturalWidth > 0
    ? Promise.resolve()
    : new Promise((resolve) => image.addEventListener('load', resolve, { once: true }));
}

async function bodyBytes(url, accept) {
  const response = await fetch(url, { headers: { accept } });
  return { bytes: (await response.arrayBuffer()).byteLength, type: response.headers.get('content-type') ?? '' };
}

async function measure(image) {
  await loaded(image);
  const url = new URL(image.currentSrc);
  // A resized URL's original is its source file.
  const sourcePath = url.pathname.replace(cdnPrefix, '');
  const original = await bodyBytes(sourcePath, originalAccept);
  const entry = performance.getEntriesByName(image.currentSrc)[0];
  // The same Accept an <img> sends; from the HTTP cache when it can, used when the timing entry has no size.
  const now = await bodyBytes(image.currentSrc, 'image/avif,image/webp,image/apng,image/*,*/*;q=0.8');
  const served = entry?.encodedBodySize > 0 ? entry.encodedBodySize : now.bytes;
  return { image, path: url.pathname, original: original.bytes, served, type: now.type };
}

const rows = await Promise.all([...document.querySelectorAll('main img')].map(measure));
const body = document.querySelector('#savings tbody');
let totalOriginal = 0;
let totalServed = 0;
for (const row of rows) {
  totalOriginal += row.original;
  totalServed += row.served;
  const saved = 1 - row.served / row.original;
  const tr = document.createElement('tr');
  tr.dataset.path = row.path;
  tr.dataset.original = String(row.original);
  tr.dataset.served = String(row.served);
  for (const [text, className] of [
    // The file name is enough to tell the rows apart (each caption below has the full URL), and leaves a phone's
    // width to the numbers.
    // A zero-width space after each underscore lets hubble_deep_field.jpg wrap there rather than mid-word.
    [`${row.path.split('/').at(-1).replaceAll('_', '_\u200b')}${cdnPrefix.test(row.path) ? ' (resized)' : ''}`, ''],
    [bytesText(row.original), 'number'],
    [bytesText(row.served), 'number'],
    [`${(saved * 100).toFixed(0)}%`, saved > 0 ? 'number saved' : 'number'],
    [row.type, ''],
  ]) {
    const td = document.createElement('td');
    td.textContent = text;
    td.className = className;
    tr.append(td);
  }
  body.append(tr);
  const output = row.image.parentElement.querySelector('output');
  output.textContent = `${row.image.naturalWidth}×${row.image.naturalHeight} px · ${bytesText(row.served)} served (original ${bytesText(row.original)}) · now served as ${row.type}`;
  output.dataset.type = row.type;
}
const cell = (name) => document.querySelector(`[data-total="${name}"]`);
cell('original').textContent = bytesText(totalOriginal);
cell('served').textContent = bytesText(totalServed);
cell('saved').textContent =
  `${bytesText(totalOriginal - totalServed)} (${((1 - totalServed / totalOriginal) * 100).toFixed(0)}%)`;
document.querySelector('#savings').dataset.ready = 'true';
