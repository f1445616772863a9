import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where each suite file appends its figures; `run.mjs` prints them all at the end. */
export const FIGURES_FILE =
  process.env.RELIABILITY_FIGURES ??
  join(dirname(fileURLToPath(import.meta.url)), '../.cache/reliability-figures.jsonl');

/** Records the figures of one section (and prints them, so a lone file run shows them too). */
export function recordFigures(section: string, figures: Record<string, unknown>): void {
  mkdirSync(dirname(FIGURES_FILE), { recursive: true });
  appendFileSync(FIGURES_FILE, `${JSON.stringify({ section, figures })}\n`);
  process.stdout.write(`\n[reliability] ${section}: ${JSON.stringify(figures)}\n`);
}
