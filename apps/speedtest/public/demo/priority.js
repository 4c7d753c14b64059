// Reads each image's cf-priority-change offsets (header end, preview end, good end) and computes, from those bytes,
// when every image has its first preview with the headers versus one image after another, at the lab's link rate.
const labBitsPerSecond = 2e6;
const numberFormat = new Intl.NumberFormat('en');
const percent = (part, whole) => `${((part / whole) * 100).toFixed(0)}%`;

function offsetsOf(header) {
  // `<header end>:20/1, <preview end>:15/1, <good end>:10/n` for a progressive JPEG; fewer stages otherwise.
  const ends = [...(header ?? '').matchAll(/(\d+):\d+\/[\dn]+/g)].map((match) => Number(match[1]));
  return ends.length === 3 ? { headerEnd: ends[0], previewEnd: ends[1], goodEnd: ends[2] } : null;
}

async function describe(image) {
  // The browser's <img> response is not readable; the same URL again comes from the HTTP cache.
  const response = await fetch(image.currentSrc || image.src);
  const bytes = (await response.arrayBuffer()).byteLength;
  return {
    name: new URL(response.url).pathname.split('/').pop(),
    type: response.headers.get('content-type') ?? '',
    bytes,
    offsets: offsetsOf(response.headers.get('cf-priority-change')),
  };
}

const images = [...document.querySelectorAll('.grid img')];
await Promise.all(
  images.map((image) =>
    image.complete ? null : new Promise((resolve) => image.addEventListener('load', resolve, { once: true })),
  ),
);
const rows = await Promise.all(images.map(describe));
const body = document.querySelector('#offsets tbody');
for (const row of rows) {
  const tr = document.createElement('tr');
  tr.dataset.type = row.type;
  const cells = [
    row.name,
    `${numberFormat.format(row.bytes)} B`,
    row.offsets
      ? `${numberFormat.format(row.offsets.previewEnd)} B (${percent(row.offsets.previewEnd, row.bytes)})`
      : '—',
    row.offsets ? `${numberFormat.format(row.offsets.goodEnd)} B (${percent(row.offsets.goodEnd, row.bytes)})` : '—',
    // Last: the same for every image when all is well, so a phone shows the offsets first.
    row.type,
  ];
  cells.forEach((text, index) => {
    const td = document.createElement('td');
    td.textContent = text;
    if (index >= 1 && index <= 3) td.className = 'number';
    tr.append(td);
  });
  body.append(tr);
}

const model = document.querySelector('#preview-model');
if (rows.every((row) => row.offsets)) {
  const total = rows.reduce((sum, row) => sum + row.bytes, 0);
  // With the headers: every header, then every preview, before anything else.
  const withHeaders = rows.reduce((sum, row) => sum + row.offsets.previewEnd, 0);
  // One after another, in page order: the last image's preview comes after every other image in full.
  const last = rows.at(-1);
  const oneByOne = total - last.bytes + last.offsets.previewEnd;
  const ms = (bytes) => Math.round(((bytes * 8) / labBitsPerSecond) * 1000);
  model.dataset.withMs = String(ms(withHeaders));
  model.dataset.withoutMs = String(ms(oneByOne));
  model.textContent =
    `Time to first preview of every image at the lab's 2 Mbit/s (bytes ÷ rate, no round trips): ` +
    `with the headers ${numberFormat.format(withHeaders)} B → ${ms(withHeaders)} ms; ` +
    `one image after another ${numberFormat.format(oneByOne)} B → ${ms(oneByOne)} ms ` +
    `(${numberFormat.format(total)} B in all).`;
} else {
  model.textContent =
    'Some images did not arrive as progressive JPEG (see "Served as"), so they have no preview stage to bring forward.';
}
document.querySelector('#offsets').dataset.ready = 'true';
