import { randomInt } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';

/** argon2id with OWASP's minimum parameters (10-data.md §2: m=19456 KiB, t=2, p=1). */
const ARGON2_OPTIONS = {
  // `Algorithm.Argon2id` is an ambient const enum, unusable under verbatimModuleSyntax.
  algorithm: 2,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

/**
 * How many argon2 computations run at once: one less than the cores (at least one). Each takes a
 * libuv pool thread and ~19 MiB for tens of milliseconds; unbounded, a storm of 50 logins kept
 * every core busy hashing, so `/health` and signed-in reads waited behind it (issue 21). The
 * rest wait their turn in order, which costs a login queueing time but never starves the loop.
 */
export const ARGON2_CONCURRENCY = Math.max(1, availableParallelism() - 1);
let running = 0;
const waiting: (() => void)[] = [];

async function bounded<T>(work: () => Promise<T>): Promise<T> {
  if (running < ARGON2_CONCURRENCY) running++;
  // The slot is handed over by the finishing computation (see below): `running` stays as it is.
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/** How many argon2 computations are running and waiting (tests and metrics). */
export function argon2Load(): { running: number; waiting: number } {
  return { running, waiting: waiting.length };
}

export function hashPassword(password: string): Promise<string> {
  return bounded(() => hash(password, ARGON2_OPTIONS));
}

/** Whether `password` matches the PHC `passwordHash`; a malformed hash counts as no match. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await bounded(() => verify(passwordHash, password));
  } catch {
    // A corrupt or foreign hash format must read as "wrong password", never as a 500.
    return false;
  }
}

/**
 * A hash of a random password, verified against when the user does not exist, so a login for an
 * unknown name costs the same time as one for a known name (no user enumeration by timing).
 */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(generatePassword());
  return dummyHash;
}

/** Letters and digits without look-alikes (0/O, 1/l/I): 55 symbols, ~5.8 bits each. */
export const UNAMBIGUOUS_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';

/** A random password (default 20 characters ≈ 116 bits) for bootstrap and resets. */
export function generatePassword(length = 20): string {
  let out = '';
  for (let i = 0; i < length; i++)
    out += UNAMBIGUOUS_ALPHABET[randomInt(UNAMBIGUOUS_ALPHABET.length)];
  return out;
}
