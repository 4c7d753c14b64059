// Placeholder until the speed test lands: proves the page, the Worker and its Wasm build are wired together.
const statusLine = document.querySelector<HTMLParagraphElement>('#wasm-status');

async function checkWasm(): Promise<void> {
  if (!statusLine) return;
  try {
    const response = await fetch('/__binast/varnum?n=1,300');
    const body = (await response.json()) as { hex?: string; decoded?: number[] };
    statusLine.textContent = response.ok
      ? `Wasm OK: varnums for 1 and 300 are ${body.hex ?? '?'} (decoded back to ${body.decoded?.join(', ') ?? '?'}).`
      : `The Worker answered ${response.status}.`;
  } catch (error) {
    statusLine.textContent = `Could not reach the Worker: ${error instanceof Error ? error.message : String(error)}`;
  }
}

void checkWasm();
