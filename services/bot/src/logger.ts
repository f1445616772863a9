import pino, { type DestinationStream, type Logger } from 'pino';

/** Never logged, wherever they appear (40-bot.md §11.2). Message texts are never logged at all. */
export const REDACT_PATHS = [
  'password',
  '*.password',
  'code',
  '*.code',
  'token',
  '*.token',
  'headers["x-internal-secret"]',
  '*.headers["x-internal-secret"]',
  'headers["x-telegram-bot-api-secret-token"]',
  '*.headers["x-telegram-bot-api-secret-token"]',
];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'usher-bot' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}
