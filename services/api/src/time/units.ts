// Fixed lengths of time in milliseconds, for instants (calendar days in a zone are `zoned-day.ts`).
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
