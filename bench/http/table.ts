// Markdown tables laid out the way Biome formats them, so a pasted report stays lint-clean.

/** A column: its heading and which side its cells line up on. */
export interface Column {
  readonly title: string;
  readonly align: 'left' | 'right';
}

/** A Markdown table with every column padded to its widest cell. */
export function markdownTable(columns: readonly Column[], rows: readonly string[][]): string {
  const widths = columns.map((column, i) =>
    Math.max(3, column.title.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    `| ${columns
      .map((column, i) => {
        const cell = cells[i] ?? '';
        const width = widths[i]!;
        return column.align === 'right' ? cell.padStart(width) : cell.padEnd(width);
      })
      .join(' | ')} |`;
  const rule = `| ${columns
    .map((column, i) => {
      const width = widths[i]!;
      return column.align === 'right' ? `${'-'.repeat(width - 1)}:` : '-'.repeat(width);
    })
    .join(' | ')} |`;
  return [line(columns.map((c) => c.title)), rule, ...rows.map((row) => line(row))].join('\n');
}
