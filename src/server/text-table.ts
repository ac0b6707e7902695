/**
 * The broker CLI's lists as aligned text: a header, a rule and one line per row, columns two
 * spaces apart, trailing spaces trimmed. The one table writer of every `npm run broker` list.
 */
export function textTable(header: readonly string[], rows: readonly string[][]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: readonly string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}
