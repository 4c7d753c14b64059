import { resultToCsv, type SpeedTestResult } from '@speedkit/speedtest';

/** Saves text as a file through a temporary link: everything stays in the browser. */
function save(text: string, type: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** File name stem; a partial result says so in its name too, so a saved file is never mistaken for a whole run. */
const stamp = (result: SpeedTestResult) =>
  `${result.startedAt.replace(/[:.]/g, '-')}${result.partial ? '-partial' : ''}`;

export function downloadCsv(result: SpeedTestResult): void {
  save(resultToCsv(result), 'text/csv', `speedkit-${stamp(result)}.csv`);
}

export function downloadJson(result: SpeedTestResult): void {
  save(JSON.stringify(result, null, 2), 'application/json', `speedkit-${stamp(result)}.json`);
}
