// The BinaryAST benches' console tables: a header line and rows, every column right-aligned to its widest cell,
// columns two spaces apart.

/** @param {(string | number)[][]} lines the header first, then the rows @returns {string} the table, lines joined by \n */
export function alignedTable(lines) {
  const widths = (lines[0] ?? []).map((_, column) => Math.max(...lines.map((line) => String(line[column]).length)));
  return lines
    .map((line) => line.map((cell, column) => String(cell).padStart(widths[column] ?? 0)).join('  '))
    .join('\n');
}
