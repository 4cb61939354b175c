// Markdown for the bench's tables: numbers and padded tables, shared by every command's output.

/** A number with `digits` decimals and thousands separators; `–` for none. */
export function fmt(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '–';
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** A markdown table with padded columns (the layout Biome's markdown formatter keeps as it is). */
export function markdownTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  align: readonly ('l' | 'r')[],
): string {
  const width = (text: string) => [...text].length;
  const widths = headers.map((header, i) => Math.max(3, width(header), ...rows.map((row) => width(row[i] ?? ''))));
  const pad = (text: string, i: number) => {
    const fill = ' '.repeat(widths[i]! - width(text));
    return align[i] === 'r' ? fill + text : text + fill;
  };
  const line = (cells: readonly string[]) => `| ${cells.map((cell, i) => pad(cell, i)).join(' | ')} |`;
  const rule = `| ${widths.map((w, i) => (align[i] === 'r' ? `${'-'.repeat(w - 1)}:` : '-'.repeat(w))).join(' | ')} |`;
  return [line(headers), rule, ...rows.map((row) => line(headers.map((_, i) => row[i] ?? '')))].join('\n');
}
