/**
 * Every `callback_data` value the bot builds (40-bot.md §9). Telegram refuses values over
 * 64 bytes, so each builder checks its result.
 */
export const CALLBACK_MAX_BYTES = 64;

function checked(value: string): string {
  if (Buffer.byteLength(value, 'utf8') > CALLBACK_MAX_BYTES) {
    throw new Error(`callback_data over ${CALLBACK_MAX_BYTES} bytes: ${value.slice(0, 16)}…`);
  }
  return value;
}

export type SearchAction = 'ok' | 'f' | 'b' | 'bs' | 'x';

export const callback = {
  approve: (requestId: string) => checked(`ap:${requestId}`),
  reject: (requestId: string) => checked(`rj:${requestId}`),
  pick: (stateId: string, index: number) => checked(`s:${stateId}:p:${index}`),
  season: (stateId: string, season: number) => checked(`s:${stateId}:n:${season}`),
  search: (stateId: string, action: SearchAction) => checked(`s:${stateId}:${action}`),
  resetpw: (stateId: string, action: 'ok' | 'x') => checked(`pw:${stateId}:${action}`),
};

export type ParsedCallback =
  | { kind: 'approve' | 'reject'; requestId: string }
  | { kind: 'pick'; stateId: string; index: number }
  | { kind: 'season'; stateId: string; season: number }
  | { kind: 'search'; stateId: string; action: SearchAction }
  | { kind: 'resetpw'; stateId: string; action: 'ok' | 'x' };

const ID = '([A-Za-z0-9-]{1,36})';
const PATTERNS: [RegExp, (m: RegExpExecArray) => ParsedCallback][] = [
  [new RegExp(`^ap:${ID}$`), (m) => ({ kind: 'approve', requestId: m[1]! })],
  [new RegExp(`^rj:${ID}$`), (m) => ({ kind: 'reject', requestId: m[1]! })],
  [
    new RegExp(`^s:${ID}:p:(\\d{1,2})$`),
    (m) => ({ kind: 'pick', stateId: m[1]!, index: Number(m[2]) }),
  ],
  [
    new RegExp(`^s:${ID}:n:(\\d{1,3})$`),
    (m) => ({ kind: 'season', stateId: m[1]!, season: Number(m[2]) }),
  ],
  [
    new RegExp(`^s:${ID}:(ok|f|b|bs|x)$`),
    (m) => ({ kind: 'search', stateId: m[1]!, action: m[2] as SearchAction }),
  ],
  [
    new RegExp(`^pw:${ID}:(ok|x)$`),
    (m) => ({ kind: 'resetpw', stateId: m[1]!, action: m[2] as 'ok' | 'x' }),
  ],
];

export function parseCallback(data: string): ParsedCallback | null {
  for (const [pattern, build] of PATTERNS) {
    const match = pattern.exec(data);
    if (match) return build(match);
  }
  return null;
}

/** The action prefix logged for a callback (`s:p`), never the ids. */
export function callbackLabel(data: string): string {
  const parsed = parseCallback(data);
  if (!parsed) return 'unknown';
  switch (parsed.kind) {
    case 'approve':
      return 'ap';
    case 'reject':
      return 'rj';
    case 'pick':
      return 's:p';
    case 'season':
      return 's:n';
    case 'search':
      return `s:${parsed.action}`;
    case 'resetpw':
      return `pw:${parsed.action}`;
  }
}
