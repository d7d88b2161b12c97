/** One line of the bench's printed table: the backend, what was measured, the figure. */
export interface Row {
  backend: string;
  test: string;
  figure: string;
}

/** The bench's closing table, one row per figure. */
export function printTable(rows: Row[]): void {
  const header: Row = { backend: "backend", test: "test", figure: "figure" };
  const widthOf = (key: keyof Row) => Math.max(...[header, ...rows].map((row) => row[key].length));
  const widths = { backend: widthOf("backend"), test: widthOf("test") };
  const format = (row: Row) =>
    `${row.backend.padEnd(widths.backend)} | ${row.test.padEnd(widths.test)} | ${row.figure}`;
  console.log(`\n${format(header)}`);
  console.log(`${"-".repeat(widths.backend)}-+-${"-".repeat(widths.test)}-+-${"-".repeat(6)}`);
  for (const row of rows) console.log(format(row));
}
