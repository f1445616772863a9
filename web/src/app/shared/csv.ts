/**
 * CSV text (RFC 4180): fields with a comma, quote or line break are quoted, quotes doubled.
 * A leading `=`, `+`, `-` or `@` is prefixed with `'` so a spreadsheet never runs it as a
 * formula (notes are free text an admin typed).
 */
export function toCsv(rows: readonly (readonly (string | number | null)[])[]): string {
  const field = (value: string | number | null): string => {
    if (value === null) return '';
    let text = String(value);
    if (typeof value === 'string' && /^[=+\-@]/.test(text)) text = `'${text}`;
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return rows.map((row) => row.map(field).join(',')).join('\r\n') + '\r\n';
}

/** Saves text as a file through a temporary object URL (built in the browser, no server). */
export function downloadText(fileName: string, text: string, type = 'text/csv'): void {
  downloadBlob(fileName, new Blob([text], { type: `${type};charset=utf-8` }));
}

/** Saves bytes already in the browser (a fetched file) under `fileName`. */
export function downloadBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  URL.revokeObjectURL(url);
}
